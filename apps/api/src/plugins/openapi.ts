import type { FastifyInstance } from 'fastify';

interface RouteDoc { method: string; url: string; auth: string; summary?: string; tags?: string[] }

/**
 * Collects every /api route as it is registered and serves an OpenAPI 3.1 document at /api/docs
 * (also /api/docs.json). Access rules are part of the document (x-access).
 */
export function registerOpenApi(app: FastifyInstance) {
  const routes: RouteDoc[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api') || route.method === 'HEAD') return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const schema = (route.schema ?? {}) as { summary?: string; tags?: string[] };
    for (const m of methods) if (m !== 'HEAD') routes.push({ method: m.toLowerCase(), url: route.url, auth: String(route.config?.auth ?? ''), summary: schema.summary, tags: schema.tags });
  });
  app.decorate('routeTable', routes);
  const handler = async () => {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const r of routes) {
      const p = r.url.replace(/:([A-Za-z_]+)/g, '{$1}');
      const params = [...r.url.matchAll(/:([A-Za-z_]+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
      paths[p] ??= {};
      paths[p][r.method] = {
        summary: r.summary ?? `${r.method.toUpperCase()} ${p}`,
        tags: r.tags ?? [],
        'x-access': r.auth,
        ...(params.length ? { parameters: params } : {}),
        ...(r.auth === 'public' ? { security: [] } : {}),
        responses: {
          200: { description: 'OK' },
          ...(r.auth !== 'public' ? { 401: { $ref: '#/components/responses/Error' } } : {}),
          ...(r.auth === 'admin' ? { 403: { $ref: '#/components/responses/Error' } } : {}),
          422: { $ref: '#/components/responses/Validation' },
        },
      };
    }
    return {
      openapi: '3.1.0',
      info: { title: 'POS API', version: '1.0.0', description: 'Wire-compatible with the reference client; see docs/api.md for decisions.' },
      servers: [{ url: '/' }],
      security: [{ bearer: [] }],
      paths,
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        responses: {
          Error: { description: 'Error', content: { 'application/json': { schema: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } } } } },
          Validation: { description: 'Validation failed', content: { 'application/json': { schema: { type: 'object', properties: {
            code: { type: 'string' }, message: { type: 'string' }, errorMessage: { type: ['string', 'null'] },
            violations: { type: 'array', items: { type: 'object', properties: { propertyPath: { type: 'string' }, message: { type: 'string' }, line: { type: 'integer', description: 'CSV imports: the file line of the row' } } } },
          } } } } },
        },
      },
    };
  };
  app.get('/api/docs', { config: { auth: 'public' }, schema: { tags: ['System'], summary: 'This OpenAPI document' } }, handler);
  app.get('/api/docs.json', { config: { auth: 'public' }, schema: { tags: ['System'], summary: 'This OpenAPI document' } }, handler);
}

declare module 'fastify' {
  interface FastifyInstance { routeTable: RouteDoc[] }
}

declare module 'fastify' {
  interface FastifySchema { tags?: string[]; summary?: string; description?: string }
}
