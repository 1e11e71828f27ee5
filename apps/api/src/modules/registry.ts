import type { FastifyPluginAsync } from 'fastify';
import authRoutes from './auth/auth.routes.ts';

/** Route modules with business rules (sales, purchasing, closing...). Each registers its own routes. */
export const modules: FastifyPluginAsync[] = [authRoutes];
