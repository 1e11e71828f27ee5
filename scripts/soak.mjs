#!/usr/bin/env node
// `npm run soak [-- <vitest file filters>]` (issue 22.3d): runs the long variants of the security and
// reliability suites (the same vitest command as before: FUZZ_RUNS=50000 unless set, so the fuzzer
// gives every route at least FUZZ_MIN_PER_ROUTE cases and the crash test kills CRASH_ROUNDS times),
// echoes their output, collects the `[figures]` lines the suites print (apps/api/test/security/
// support.ts report()) and rewrites the block between `<!-- soak:begin -->` and `<!-- soak:end -->`
// in docs/reliability.md with them, the date, the command and the knobs that produced them, and
// whether the run passed (SOAK_APPEND=1: added under the block already there, for a part re-run). Exits with vitest's status (a failed soak still records its figures).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const doc = path.join(root, 'docs', 'reliability.md');
const BEGIN = '<!-- soak:begin -->';
const END = '<!-- soak:end -->';
const KNOBS = ['FUZZ_RUNS', 'FUZZ_MIN_PER_ROUTE', 'FUZZ_SEED', 'FUZZ_ROUTES', 'CRASH_ROUNDS', 'TEST_DB'];

const env = { ...process.env, FUZZ_RUNS: process.env.FUZZ_RUNS || '50000' };
const filters = process.argv.slice(2);
const targets = filters.length ? filters : ['apps/api/test/security', 'apps/api/test/reliability'];
const args = ['vitest', 'run', ...targets, '--project', 'api'];
const knobs = KNOBS.filter((k) => env[k]).map((k) => `${k}=${env[k]}`).join(' ');
const command = `${knobs} npx ${args.join(' ')}`;

// eslint-disable-next-line no-control-regex
const plain = (s) => s.replace(/\u001b\[[0-9;]*m/g, '');

/** The figure lines of an output: each `[figures]` line with its indented continuation lines. */
export function figuresOf(output) {
  const out = [];
  let open = false;
  for (const raw of plain(output).split('\n')) {
    const at = raw.indexOf('[figures] ');
    if (at >= 0) { out.push(raw.slice(at + '[figures] '.length).trimEnd()); open = true; continue; }
    if (open && /^ {2}\S/.test(raw)) { out[out.length - 1] += `\n${raw.trimEnd()}`; continue; }
    open = false;
  }
  return out;
}

/** The text inside the doc's marked block (without the markers' own lines). */
export function blockOf(text) {
  const b = text.indexOf(BEGIN);
  const e = text.indexOf(END);
  return b < 0 || e < b ? '' : text.slice(b + BEGIN.length, e).trim();
}

/** The doc with its marked block replaced (the markers must be there, once each, in order). */
export function withBlock(text, body) {
  const b = text.indexOf(BEGIN);
  const e = text.indexOf(END);
  if (b < 0 || e < b || text.indexOf(BEGIN, b + 1) >= 0) throw new Error(`docs/reliability.md needs one ${BEGIN} ... ${END} block`);
  return `${text.slice(0, b + BEGIN.length)}\n${body}\n${text.slice(e)}`;
}

function block(figures, status, seconds) {
  const when = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const verdict = status === 0 ? 'passed' : `FAILED (vitest exit ${status})`;
  const lines = figures.length ? figures.map((f) => `- ${f.replace(/\n {2}/g, '\n  - ')}`) : ['- (no figures printed)'];
  return [
    `Written by \`npm run soak\` (scripts/soak.mjs) on ${when}: \`${command}\`, ${verdict} in ${Math.round(seconds)} s.`,
    '',
    ...lines,
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  console.log(`soak: ${command}`);
  const child = spawn('npx', args, { cwd: root, env, stdio: ['inherit', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => { output += d; process.stdout.write(d); });
  child.stderr.on('data', (d) => { output += d; process.stderr.write(d); });
  child.on('close', (code, signal) => {
    const status = code ?? (signal ? 1 : 0);
    const figures = figuresOf(output);
    const text = fs.readFileSync(doc, 'utf8');
    const body = block(figures, status, (Date.now() - started) / 1000);
    // SOAK_APPEND=1: a soak run in parts (one part re-run) adds its block under the last one instead of replacing it.
    fs.writeFileSync(doc, withBlock(text, process.env.SOAK_APPEND === '1' ? `${blockOf(text)}\n\n${body}` : body));
    console.log(`soak: ${figures.length} figure lines written to docs/reliability.md (${status === 0 ? 'passed' : 'failed'})`);
    process.exit(status);
  });
}
