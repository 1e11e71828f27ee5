import type { FastifyServerOptions } from 'fastify';

/** Query parameters that carry a credential (the file download's ?bearer=, the old refresh call's ?refresh_token=). */
const SECRET_PARAMS = /([?&](?:bearer|token|refresh_token|access_token|resetToken)=)[^&#]*/gi;

/** The URL with every credential in its query replaced by [redacted]. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

/** The request log line: method, redacted url, host, remote address; never the Authorization header. */
function req(request: { method: string; url: string; host?: string; hostname?: string; ip?: string; socket?: { remotePort?: number } }) {
  return { method: request.method, url: redactUrl(request.url), host: request.host ?? request.hostname, remoteAddress: request.ip, remotePort: request.socket?.remotePort };
}

/** Adds the redacting request serializer and header redaction to Fastify's logger options. */
export function withRedaction(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return logger;
  const base = logger === true ? {} : logger;
  return {
    ...base,
    serializers: { ...(base as { serializers?: object }).serializers, req },
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization'], censor: '[redacted]' },
  } as FastifyServerOptions['logger'];
}
