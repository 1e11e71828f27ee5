// The node flags the API server runs with (`npm start`, the benches): a small young generation
// (2 x 4 MB instead of node 20/22's 2 x 16 MB and node 24's 2 x 32 MB) and an old generation
// collected when it has grown by 30% over what survived the last collection (V8 otherwise lets it
// grow up to several times that on a machine with memory to spare). A sale load of 20 tills then
// holds the server at ~140-150 MB instead of 240-290 MB, for ~0.4 ms more of the API's CPU per sale
// (docs/performance.md "API memory under sale load", figures and method).
// Node reads them only from its command line (or NODE_OPTIONS, which does not take the second).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const SERVER_NODE_FLAGS = ['--max-semi-space-size=4', '--heap-growing-percent=30'];

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
