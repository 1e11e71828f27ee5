// The node flags the API server runs with (`npm start`, the benches): a small young generation and
// a tight old-generation growth, so that the server's memory under a full sale load stays about
// 130-140 MB instead of 250-290 MB (docs/performance.md "API memory under sale load"). Node's
// defaults size the heap for throughput on a big machine: a 32 MB young generation, and an old
// generation that grows to 3x what survives before it is collected — a sale's short-lived objects
// (the request body of whole product objects, its parse, its answer) fill both.
// Only flags node accepts on its command line; read at start-up, so they cannot be set from inside.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const SERVER_NODE_FLAGS = ['--max-semi-space-size=4', '--heap-growing-percent=10'];

/**
 * Runs `main` in a node process that has SERVER_NODE_FLAGS: this one when it has them, else a child
 * started with them (this script again, same arguments, same terminal), to which SIGINT, SIGTERM
 * and SIGHUP are passed on; this process then exits as the child did. The server ignores a second
 * signal while it stops, so a signal that reaches both (Ctrl-C in a terminal, a service manager
 * stopping the whole group) stops it once.
 */
export async function runWithServerFlags(script, main) {
  if (SERVER_NODE_FLAGS.every((f) => process.execArgv.includes(f))) return main();
  const child = spawn(process.execPath, [...process.execArgv, ...SERVER_NODE_FLAGS, fileURLToPath(script), ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => { if (child.exitCode === null) child.kill(signal); });
  child.on('error', (err) => { console.error(`POS cannot start: ${err.message}`); process.exit(1); });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + (signal === 'SIGINT' ? 2 : signal === 'SIGHUP' ? 1 : 15) : 1)));
}
