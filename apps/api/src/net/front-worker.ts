/**
 * The front thread (net/front.ts starts it): owns the public port, TLS included, and hands every
 * request on to the API's thread over a private socket, except those the API would refuse on
 * arrival while it is overloaded, which it answers itself with the API's 503 + Retry-After
 * (plugins/admission-front.ts). Its own work per request is parsing, counting and piping, so it is idle most of
 * the time and the kernel runs it as soon as a request arrives: a refusal no longer waits behind
 * the sales the API's thread is running (docs/performance.md, "Overload: the front thread").
 *
 * Imports nothing of the app but admission's rules and the one-port server: a thread of its own
 * costs its heap, kept small.
 */
import http from 'node:http';
import type https from 'node:https';
import type net from 'node:net';
import os from 'node:os';
import type tls from 'node:tls';
import { parentPort, workerData } from 'node:worker_threads';
import { BUSY, RETRY_AFTER_S, type AdmissionClass, type AdmissionLimits } from '../plugins/admission-classes.ts';
import { FrontBoard, FrontGates, routeClassifier, type RouteClass } from '../plugins/admission-front.ts';
import { onePortServer } from './one-port.ts';

/** What net/front.ts gives the thread. */
export interface FrontData {
  port: number;
  host: string;
  /** The API's private socket (a Unix socket path, or a named pipe on Windows). */
  upstream: string;
  tls: { key: string; cert: string; caCert?: string } | null;
  limits: AdmissionLimits;
  routes: RouteClass[];
  board: SharedArrayBuffer;
  keepAliveTimeoutMs: number;
  /** The nice value the thread asks for (raisePriority); 0: none asked. */
  nice: number;
}

/** Messages between the threads. */
export type ToFront = { type: 'tls'; key: string; cert: string; caCert?: string } | { type: 'close' };
export type FromFront = { type: 'listening'; port: number; nice: number } | { type: 'error'; message: string; code?: string } | { type: 'closed' };

const data = workerData as FrontData;
const port = parentPort!;
const post = (m: FromFront) => port.postMessage(m);
const gates = new FrontGates(data.limits, new FrontBoard(data.board));
const classify = routeClassifier(data.routes);
const upstreamAgent = new http.Agent({ keepAlive: true, maxFreeSockets: 256 });

/** Hop-by-hop headers (RFC 9110 7.6.1) and what the front sets itself: never passed on. */
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'expect', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host']);
const busyBody = JSON.stringify(BUSY);

/** A request's or an answer's headers without the hop-by-hop ones. */
function passOn(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) if (!HOP.has(k) && v !== undefined) out[k] = v;
  return out;
}

function shed(res: http.ServerResponse, cls: AdmissionClass): void {
  // The body, if any, is read past by node once the answer is written; the connection stays open.
  res.writeHead(503, {
    'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(busyBody),
    'retry-after': String(RETRY_AFTER_S[cls]), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff',
    // Who refused it: the front, not the API's thread (the bench counts them apart).
    'x-shed-by': 'front',
  }).end(busyBody);
}

function unavailable(res: http.ServerResponse): void {
  if (res.destroyed || res.writableEnded) return; // the client is gone (its going ended the hand-on)
  if (res.headersSent) { res.destroy(); return; }
  // The API's thread is not answering (starting, stopping, restarting): a till retries after Retry-After, with the same sale id.
  res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1', 'cache-control': 'no-store' }).end(busyBody);
}

let closing = false;

function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  // Stopping: this answer is the connection's last.
  if (closing) res.setHeader('connection', 'close');
  const method = req.method ?? 'GET';
  const cls = classify(method, req.url ?? '/');
  if (cls && gates.refuses(cls)) { shed(res, cls); return; }
  if (cls) gates.enter(cls);
  let status = 0;
  let left = false;
  const leave = () => { if (!left && cls) { left = true; gates.leave(cls, status); } };

  const headers = passOn(req.headers);
  // The API trusts these from this socket only (app.ts): the peer's own address and protocol, never a client's claim.
  headers['x-forwarded-for'] = req.socket.remoteAddress ?? '';
  headers['x-forwarded-proto'] = (req.socket as tls.TLSSocket).encrypted ? 'https' : 'http';

  const up = http.request({ socketPath: data.upstream, path: req.url, method, headers, agent: upstreamAgent });
  up.on('response', (answer) => {
    status = answer.statusCode ?? 502;
    res.writeHead(status, answer.statusMessage, passOn(answer.headers));
    answer.pipe(res);
    answer.on('error', () => res.destroy());
  });
  up.on('error', () => unavailable(res));
  // The client gone before its answer was written: the API sees its request end too (a queued one leaves the queue).
  res.on('close', () => { leave(); if (!res.writableFinished) up.destroy(); });
  req.pipe(up);
}

const server: http.Server | https.Server = data.tls ? onePortServer(data.tls, handle) : http.createServer(handle);
if (data.tls) (server as https.Server).setSecureContext({ key: data.tls.key, cert: data.tls.cert, minVersion: 'TLSv1.2' });
// As Fastify's own server had them: idle keep-alive connections kept 72 s, no limit on reading a request beyond the headers' 60 s.
server.keepAliveTimeout = data.keepAliveTimeoutMs;
server.requestTimeout = 0;

port.on('message', (m: ToFront) => {
  if (m.type === 'tls' && data.tls) {
    Object.assign(data.tls, { key: m.key, cert: m.cert, caCert: m.caCert });
    (server as https.Server).setSecureContext({ key: m.key, cert: m.cert, minVersion: 'TLSv1.2' });
  } else if (m.type === 'close') {
    // No new connections; idle ones closed now, busy ones once their answer is written.
    closing = true;
    server.close(() => { upstreamAgent.destroy(); post({ type: 'closed' }); });
    server.closeIdleConnections();
  }
});
server.on('error', (err: NodeJS.ErrnoException) => post({ type: 'error', message: err.message, code: err.code }));
server.listen(data.port, data.host, () => post({ type: 'listening', port: (server.address() as net.AddressInfo).port, nice: raisePriority(data.nice) }));

/**
 * This thread's nice value raised to `nice` (below 0: ahead of the API's thread, PostgreSQL and
 * everything else on the machine), so a request is read as soon as it arrives even with every core
 * busy: the thread's own work is small, so it takes little from the others. Needs the permission
 * (root, CAP_SYS_NICE, or a nice limit such as systemd's LimitNICE=-5); without it the thread stays
 * at the process's priority. Returns the nice value it runs at.
 */
function raisePriority(nice: number): number {
  if (nice < 0) {
    try { os.setPriority(nice); } catch { /* not permitted: the process's own priority */ }
  }
  return os.getPriority();
}

