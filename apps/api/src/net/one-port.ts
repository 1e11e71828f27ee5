import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import { servePlainTrustPage } from './trust-page.ts';

/** What the one-port server needs of the TLS material: read on each plain request (renewals fill it). */
export interface PlainSide { caCert?: string }

const TLS_HANDSHAKE = 0x16;

/**
 * One listening port for both protocols: the first byte of a connection tells a TLS handshake
 * (to HTTPS, `handler`) from plain http (a redirect to https://, or the CA page). The certificate is
 * set on the returned server with `setSecureContext` before it listens (net/tls.ts loadTls, or the
 * front thread, net/front-worker.ts). Used by Fastify's server factory and by the front thread.
 */
export function onePortServer(tls: PlainSide, handler: http.RequestListener): https.Server {
  const server = https.createServer({ minVersion: 'TLSv1.2' }, handler);
  const plain = http.createServer((req, res) => {
    if (tls.caCert && servePlainTrustPage(req, res, tls.caCert)) return; // read now: filled by loadTls
    const host = req.headers.host ?? 'localhost';
    res.writeHead(308, { location: `https://${host}${req.url ?? '/'}`, 'cache-control': 'no-store' }).end();
  });
  const onTls = server.listeners('connection') as ((socket: net.Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: net.Socket) => {
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      if (first[0] === TLS_HANDSHAKE) for (const l of onTls) l.call(server, socket);
      else plain.emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
  });
  server.on('close', () => plain.close());
  return server;
}
