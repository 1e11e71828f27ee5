import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AppConfig } from '../config.ts';
import type { AdmissionLimits } from '../plugins/admission-classes.ts';
import type { RouteClass } from '../plugins/admission-front.ts';
import type { FrontData, FromFront, ToFront } from './front-worker.ts';
import type { TlsMaterial } from './tls.ts';

/**
 * The front thread, seen from the API's thread (server.ts): the public port is the front's
 * (front-worker.ts), the API listens on a private socket the front alone talks to. Why a thread,
 * and why it is not on by default: docs/performance.md "Overload: the front thread" and
 * ARCHITECTURE.md "The front thread".
 *
 * On with FRONT=on, unless TRUST_PROXY is set (the shop's own proxy is then the front, and it is
 * its forwarded addresses the API trusts).
 */
export function frontWanted(config: Pick<AppConfig, 'trustProxy'>, env: NodeJS.ProcessEnv = process.env): boolean {
  const raw = env.FRONT ?? 'off';
  if (raw !== 'on' && raw !== 'off') throw new Error(`FRONT must be on or off, got "${raw}"`);
  return raw === 'on' && !config.trustProxy;
}

/** FRONT_NICE: the nice value the front thread asks for, -20 to 0 (0: none); -5 by default (front-worker.ts raisePriority). */
export function frontNice(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.FRONT_NICE;
  if (raw === undefined || raw === '') return -5;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < -20 || n > 0) throw new Error(`FRONT_NICE must be a whole number from -20 to 0, got "${raw}"`);
  return n;
}

/**
 * A socket only this process's threads use: a Unix socket in a new folder only its user can enter
 * (mode 0700), or on Windows a named pipe with an unguessable name. `remove` deletes it.
 */
export function privateSocket(): { path: string; remove: () => void } {
  const name = `pos-api-${process.pid}-${crypto.randomBytes(8).toString('hex')}`;
  if (process.platform === 'win32') return { path: `\\\\.\\pipe\\${name}`, remove: () => {} };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `pos-api-${process.pid}-`));
  return { path: path.join(dir, 'api.sock'), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export interface Front {
  /** The public port (the one asked for, or the one given when 0 was asked). */
  port: number;
  /** The nice value the thread runs at (FRONT_NICE, when permitted). */
  nice: number;
  /** A renewed certificate, installed without a restart. */
  setTls(tls: TlsMaterial): void;
  /** Stops taking connections; resolves once every answer in progress is written. */
  close(): Promise<void>;
}

export interface FrontOptions {
  port: number;
  host: string;
  upstream: string;
  tls: TlsMaterial | null;
  limits: AdmissionLimits;
  routes: RouteClass[];
  board: SharedArrayBuffer;
  /** The nice value to ask for (frontNice). */
  nice: number;
  /** The thread failed after it started (it never should): the process exits to be restarted. */
  onFailure: (err: Error) => void;
}

/**
 * The thread's code: the compiled file next to the compiled server, or under tsx (dev, tests) the
 * source, loaded through tsx's loader registered in the thread itself (a worker does not inherit
 * the `--import tsx` of its process on Node 20).
 */
function workerCode(): { code: string | URL; evaluated: boolean } {
  if (!import.meta.url.endsWith('.ts')) return { code: new URL('./front-worker.js', import.meta.url), evaluated: false };
  const source = new URL('./front-worker.ts', import.meta.url).href;
  return { code: `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(source)}); })`, evaluated: true };
}

/** Starts the front thread and resolves once it listens (rejects with the listen error: port in use, ...). */
export function startFront(options: FrontOptions): Promise<Front> {
  const { code, evaluated } = workerCode();
  const data: FrontData = {
    port: options.port, host: options.host, upstream: options.upstream,
    tls: options.tls ? { key: options.tls.key, cert: options.tls.cert, caCert: options.tls.caCert } : null,
    limits: options.limits, routes: options.routes, board: options.board, keepAliveTimeoutMs: 72_000, nice: options.nice,
  };
  // Its heap is small (it keeps no state but counters); a limit keeps a defect in it from growing the process.
  const worker = new Worker(code, { eval: evaluated, workerData: data, resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 6 }, name: 'pos-front' });
  let closed: (() => void) | null = null;
  let started = false;
  return new Promise((resolve, reject) => {
    worker.on('message', (m: FromFront) => {
      if (m.type === 'listening') {
        started = true;
        resolve({
          port: m.port,
          nice: m.nice,
          setTls: (tls) => worker.postMessage({ type: 'tls', key: tls.key, cert: tls.cert, caCert: tls.caCert } satisfies ToFront),
          close: () => new Promise<void>((done) => {
            closed = done;
            worker.postMessage({ type: 'close' } satisfies ToFront);
          }).then(() => worker.terminate()).then(() => {}),
        });
      } else if (m.type === 'error') {
        const err = Object.assign(new Error(m.message), { code: m.code });
        if (!started) { void worker.terminate(); reject(err); } else options.onFailure(err);
      } else if (m.type === 'closed') closed?.();
    });
    worker.on('error', (err) => (started ? options.onFailure(err) : reject(err)));
    worker.on('exit', (code) => {
      if (closed) { closed(); return; }
      const err = new Error(`the front thread exited (${code})`);
      if (started) options.onFailure(err); else reject(err);
    });
  });
}
