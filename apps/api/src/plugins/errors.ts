import type { FastifyInstance, FastifyError } from 'fastify';
import { ZodError } from 'zod';
import { AppError, validationError } from '@pos/domain/errors';

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

/** The single error handler: every failure leaves as {code, message[, violations]}; 5xx never show internals. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | Error, request, reply) => {
    let appError: AppError;
    if (err instanceof AppError) appError = err;
    else if (err instanceof ZodError) appError = fromZod(err);
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
      } else if (status >= 400 && status < 500) {
        appError = new AppError(status, status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST', fe.message || 'Bad Request');
      } else {
        appError = new AppError(500, 'INTERNAL', 'Internal Server Error');
      }
    }
    if (appError.status >= 500) request.log.error({ err }, 'request failed');
    return reply.status(appError.status).send(appError.toBody());
  });
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ code: 'NOT_FOUND', message: `Route ${request.method} ${request.url.split('?')[0]} not found` });
  });
}
