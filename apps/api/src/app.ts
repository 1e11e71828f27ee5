import fs from 'node:fs';
import zlib from 'node:zlib';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { loadConfig, type AppConfig } from './config.ts';
import { openDatabase, type Database, type Db } from './db/client.ts';
import { registerErrorHandler } from './plugins/errors.ts';
import { createTokenService, registerAuth, type TokenService } from './plugins/auth.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { admissionLimits, registerAdmission, type AdmissionOverrides } from './plugins/admission.ts';
import { createMailer, type Mailer } from './lib/mailer.ts';
import { registerResource } from './resources/engine.ts';
import { seedDemoShop } from './setup/demo-shop.ts';
import { modules, resources } from './modules/registry.ts';
import { loadOrCreateSecret } from './secret.ts';
import { withRedaction } from './net/log-redaction.ts';
import type { FrontBoard } from './plugins/admission-front.ts';
import { tlsServerFactory, type TlsMaterial } from './net/tls.ts';
import { registerTrustRoutes } from './net/trust-page.ts';
import { backupDir, migrateWithBackup, scheduleDailyBackups } from './backup/schedule.ts';
import { scheduleRollups } from './modules/reports/rollups.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    db: Db;
    database: Database;
    tokens: TokenService;
    mailer: Mailer;
  }
}

export interface BuildOptions {
  config?: Partial<AppConfig>;
  /** Environment to read (defaults to process.env). Tests pass {} to stay hermetic. */
  env?: NodeJS.ProcessEnv;
  /** An already-open database (tests share one per file). */
  database?: Database;
  mailer?: Mailer;
  logger?: FastifyServerOptions['logger'];
  /** Admission limits per request class (plugins/admission.ts); the environment's ADMISSION_* otherwise. */
  admission?: AdmissionOverrides;
  /** Serve HTTPS; the certificate is put in this slot before listen (server.ts, net/tls.ts). */
  tls?: TlsMaterial | null;
  /**
   * Behind the front thread (net/front.ts): the app listens on a private socket, the front serves
   * the public port (TLS included) and writes the client's address and protocol in X-Forwarded-*,
   * trusted from that socket only; admission tells the front its state on this board.
   */
  front?: FrontBoard;
}

/** Deepest JSON nesting accepted in a request body (a sale with whole cached products is under 10). */
export const MAX_JSON_DEPTH = 64;

/** Whether a JSON text nests objects/arrays deeper than `max` (a linear scan; strings skipped). */
export function jsonTooDeep(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) { if (++depth > max) return true; }
    else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** Builds the whole server: plugins, then the resource engine, then the modules. Only server.ts listens. */
export async function buildApp(options: BuildOptions = {}): Promise<FastifyInstance> {
  const config = loadConfig(options.env ?? process.env, options.config);
  const app = Fastify({
    logger: withRedaction(options.logger ?? { level: config.logLevel }),
    bodyLimit: config.bodyLimit,
    // Behind the front, the socket's own peer (the front, hop 0) is trusted and nothing beyond it:
    // the address the front saw is the client's.
    trustProxy: options.front ? (_address: string, hop: number) => hop === 0 : config.trustProxy,
    serverFactory: options.tls && !options.front ? tlsServerFactory(options.tls) : undefined,
    routerOptions: { ignoreTrailingSlash: true },
    ajv: { customOptions: { coerceTypes: false } },
  });

  const database = options.database ?? (await openDatabase(config, {
    log: (msg) => app.log.info(msg),
    // The shop's PostgreSQL died under us: exit so the supervisor restarts the server, and with it
    // PostgreSQL, which runs its crash recovery.
    onDatabaseExit: (pid) => { app.log.fatal(`The PostgreSQL of the data folder (pid ${pid}) stopped; exiting to be restarted`); process.exit(1); },
  }));
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  if (!config.jwtSecret) config.jwtSecret = loadOrCreateSecret(config.dataDir);
  app.decorate('tokens', createTokenService(config.jwtSecret, config.jwtTtl));
  app.decorate('mailer', options.mailer ?? (await createMailer(config.smtpUrl, config.mailFrom, app.log)));

  registerErrorHandler(app);
  // First hook of every request: a busy server answers 503 before any token check or database work.
  registerAdmission(app, admissionLimits(options.env ?? process.env, options.admission), options.front);
  // Refuse JSON nested deeper than any real request before parsing it: a 10 000-deep body would
  // overflow the stack of whatever walks it later (idempotency hashing, validation) and end as a 500.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // The reference client sends `Content-Type: application/json` on every call, bodiless POSTs and
    // DELETEs included (refund, restore, unsuspend, delete): an empty body is no body, on every
    // route and method. A body that is present but malformed is still a 400 naming the problem.
    if ((body as string).trim() === '') {
      done(null, undefined);
      return;
    }
    if (jsonTooDeep(body as string, MAX_JSON_DEPTH)) {
      done(Object.assign(new Error(`The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`), { statusCode: 400 }), undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        // Never on plain http (a LAN page would ask for every asset over https and stay blank);
        // on HTTPS every source is 'self' already, so it would add nothing.
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(cors, {
    origin: (origin, cb) => cb(null, !origin || config.corsOrigins.includes(origin) ? (origin ?? false) : false),
    credentials: true,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'Authorization', 'Idempotency-Key'],
    exposedHeaders: ['Link'],
    maxAge: 3600,
  });
  // JSON answers compressed when the client accepts it (brotli at a fast level, else gzip); the
  // web app's files are served from their build-time .br/.gz copies (preCompressed below).
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'], brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } } });
  await app.register(multipart, { limits: { fileSize: 50 * 1024 * 1024, files: 1 } });
  registerAuth(app, database.db, app.tokens);
  registerOpenApi(app);
  const tls = options.tls;
  if (tls) registerTrustRoutes(app, () => tls.caCert);

  app.get('/api/health', { config: { auth: 'public' }, schema: { tags: ['System'], summary: 'Ready when the database is migrated and reachable; with this process\'s admission counters by class' } }, async (_req, reply) => {
    try {
      await database.ping();
      return { status: 'ok', database: database.kind, admission: app.admissionStats() };
    } catch {
      return reply.status(503).send({ code: 'UNAVAILABLE', message: 'Database unavailable', status: 'unavailable' });
    }
  });

  for (const def of resources) registerResource(app, def);
  for (const mod of modules) await app.register(mod);

  // The built web app, with client-side routes falling back to index.html.
  const index = path.join(config.webDist, 'index.html');
  if (fs.existsSync(index)) {
    const assetsDir = path.join(config.webDist, 'assets') + path.sep;
    await app.register(fastifyStatic, { root: config.webDist, prefix: '/', wildcard: false, index: false, preCompressed: true, cacheControl: false,
      // Hashed build assets never change under their name; everything else is revalidated.
      setHeaders: (res, file) => res.setHeader('cache-control', file.startsWith(assetsDir) ? 'public, max-age=31536000, immutable' : 'no-cache'),
    });
    const html = () => fs.readFileSync(index);
    app.get('/', (_req, reply) => reply.type('text/html').header('cache-control', 'no-cache').send(html()));
    app.get('/*', (request, reply) => {
      const url = request.url.split('?')[0];
      const file = path.join(config.webDist, path.normalize(url).replace(/^(\.\.[/\\])+/, ''));
      if (file.startsWith(config.webDist) && fs.existsSync(file) && fs.statSync(file).isFile()) {
        const immutable = url.startsWith('/assets/');
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        return reply.sendFile(path.relative(config.webDist, file));
      }
      if (url.startsWith('/api/')) return reply.status(404).send({ code: 'NOT_FOUND', message: `Route ${request.method} ${url} not found` });
      return reply.type('text/html').header('cache-control', 'no-cache').send(html());
    });
  }

  // A database with a schema gets a backup before its migrations (backup/schedule.ts).
  await migrateWithBackup(database.url, () => database.migrate(), { dir: backupDir(config.dataDir), source: database.kind, log: (m) => app.log.info(m) });
  if (config.seedDemo) await seedDemoShop(database.db, { bcryptRounds: config.bcryptRounds, log: app.log });
  if (!options.database) app.addHook('onClose', async () => { await database.close(); });
  // The daily backup: of the processes sharing this database, the one that claims the day takes it.
  if (!options.database && config.dailyBackups) {
    const stop = scheduleDailyBackups({ url: database.url, dir: backupDir(config.dataDir), source: database.kind, firstAfterMs: config.dailyBackupFirstCheckMs,
      log: (m) => app.log.info(m), onError: (e) => app.log.error(`Daily backup failed: ${(e as Error).message}`) });
    app.addHook('onClose', async () => stop());
  }
  // Closed store-days rolled up ahead of the reports (modules/reports/rollups.ts); any process may.
  if (!options.database && config.reportRollupEveryMs > 0) {
    const stop = scheduleRollups(database.db, { firstAfterMs: 30_000, everyMs: config.reportRollupEveryMs,
      log: (m) => app.log.info(m), onError: (e) => app.log.error(`Report roll-ups failed: ${(e as Error).message}`) });
    app.addHook('onClose', async () => stop());
  }
  return app;
}
