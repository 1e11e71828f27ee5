import type { FastifyInstance, FastifyError } from 'fastify';
import { ZodError } from 'zod';
import { AppError, validationError } from '@pos/domain/errors';
import { QUERY_CANCELED } from '../db/statement-timeout.ts';

/** Turns a zod issue path into the propertyPath the client maps to a form field: items[0].price */
export function propertyPath(path: PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out;
}

export function fromZod(error: ZodError): AppError {
  return validationError(error.issues.map((i) => ({ propertyPath: propertyPath(i.path), message: i.message })));
}

/** The SQLSTATE of a database error (drizzle wraps the driver's error in `cause`). */
export function sqlState(err: unknown): string | undefined {
  for (let e: any = err, i = 0; e && i < 3; e = e.cause, i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && /^\d/.test(e.code)) return e.code;
  }
  return undefined;
}

/**
 * Defence in depth: a value the validation let through but the database refuses is the client's
 * fault, not a server failure. Data exceptions (class 22: too long, out of range, NUL byte, bad
 * text) -> 422; integrity violations (class 23: unique, foreign key, not null, check) and
 * serialization failures/deadlocks (40001, 40P01) -> 409. The body never repeats the SQL.
 */
export function dbRefusal(err: unknown): AppError | undefined {
  const code = sqlState(err);
  if (!code) return undefined;
  if (code.startsWith('22')) return validationError([{ propertyPath: '', message: 'This value is not valid.' }], 'This value is not valid.');
  if (code === '23505') return new AppError(409, 'CONFLICT', 'This value is already used.');
  if (code === '23503') return new AppError(409, 'CONFLICT', 'This record is linked to another record.');
  if (code.startsWith('23')) return validationError([{ propertyPath: '', message: 'This value is not valid.' }], 'This value is not valid.');
  if (code === '40001' || code === '40P01') return new AppError(409, 'CONFLICT', 'A concurrent change conflicted with this one, please retry.');
  // A statement over its class's time limit (db/statement-timeout.ts): the server is busy, not broken.
  if (code === QUERY_CANCELED) return new AppError(503, 'BUSY', 'The server is busy: try again in a moment (sales are kept)');
  return undefined;
}

/** The single error handler: every failure leaves as {code, message[, violations]}; 5xx never show internals. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | Error, request, reply) => {
    let appError: AppError;
    if (err instanceof AppError) appError = err;
    else if (err instanceof ZodError) appError = fromZod(err);
    // The exact money maths throws RangeError when amounts multiply past what it can hold exactly
    // (e.g. a quantity and a cost each near the 12-digit limit): the input is too large, not a crash.
    // (Fastify's own errors, such as the 413 for a large body, are RangeErrors with a statusCode: not these.)
    else if (err instanceof RangeError && (err as FastifyError).statusCode === undefined) appError = validationError([], 'A value is out of range.');
    else {
      const fe = err as FastifyError;
      const status = fe.statusCode ?? 500;
      if (fe.validation) {
        appError = validationError(fe.validation.map((v) => ({
          propertyPath: (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.') || String((v.params as any)?.missingProperty ?? ''),
          message: v.message ?? 'This value is not valid.',
        })));
      } else if (status === 413 || fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        appError = new AppError(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large');
      } else if (status === 429) {
        appError = new AppError(429, 'RATE_LIMITED', fe.message || 'Too many requests');
      } else if (dbRefusal(err)) {
        appError = dbRefusal(err)!;
      } else if (status >= 400 && status < 500) {
        appError = new AppError(status, status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST', fe.message || 'Bad Request');
      } else {
        appError = new AppError(500, 'INTERNAL', 'Internal Server Error');
      }
    }
    if (appError.code === 'BUSY') {
      reply.header('retry-after', '1').header('cache-control', 'no-store');
      request.log.warn({ err }, 'statement cancelled by its time limit');
    } else if (appError.status >= 500) request.log.error({ err }, 'request failed');
    else if (sqlState(err)) request.log.warn({ err }, 'refused by the database (missing validation?)');
    return reply.status(appError.status).send(appError.toBody());
  });
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ code: 'NOT_FOUND', message: `Route ${request.method} ${request.url.split('?')[0]} not found` });
  });
}
