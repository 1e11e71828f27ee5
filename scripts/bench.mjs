#!/usr/bin/env node
// `npm run bench [-- --quick] [-- --only api|web|engines|stock|reports|bundle|openloop|processes] [-- --save-baseline] [-- --report]`
//
// Runs the performance bench (docs/performance.md): the API half (bench/api-bench.ts: catalogue
// generator, product pages, sale history and day closing over many orders, 20 tills selling at
// once next to a plain-SQL ceiling, server memory) and the web half (bench/web-bench.ts: bundle
// size, till cold and warm start, scan to line, fuzzy search, long tasks, change propagation),
// and the engines part (bench/engine-bench.ts: the production build's start-up time, and sales/s
// with 20 tills on the shop's own PostgreSQL beside the machine's, same work, same run),
// one after the other (they share the machine), then writes bench/results.md and prints it.
// Each half stops by itself (bounded loops, loopback only, throwaway databases dropped).
//   --quick          smaller variant (20k products, 100k orders, shorter runs): a smoke test
//   --only api|web|engines|stock|reports   run one part (the others keep their last results); stock:
//                    bench/stock-bench.ts, a count of 10,000 scanned lines approved (issue 25); reports =
//                    bench/reports-bench.ts, every report (issue 25.6) over 1M orders and 100k products
//   --only openloop  the mixed open-loop overload bench (bench/open-loop.ts: 80% sales, 15% searches
//                    and lists, 5% catalogue syncs at fixed rising rates, then 2× the knee);
//                    --products N, --rates 100,200,..., --step-seconds S pass through to it
//   --only processes several API processes behind one PostgreSQL (bench/multi-process.ts, issue 24):
//                    20 tills over 1, 2, 3 processes, CPU per sale of each part, 4- and 8-core projection;
//                    --processes 1,2,3, --pool-total T / --pool-each K, --runs R, --seconds S pass through
//   --only bundle    only the web line "JavaScript for login + till as transferred" (the rest keep theirs)
//   --report         only rebuild bench/results.md from bench/out/*.json
//   --save-baseline  also store this run as bench/baseline.json (the "before" column)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'bench', 'out');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyIdx = args.indexOf('--only');
const only = onlyIdx >= 0 ? args[onlyIdx + 1] : null;
const reportOnly = args.includes('--report');

function run(name, file, extraArgs = []) {
  const started = Date.now();
  console.log(`\n=== bench: ${name} (${quick ? 'quick' : 'full'})`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench', file), ...(quick ? ['--quick'] : []), ...extraArgs], {
    cwd: root, stdio: 'inherit', env: { ...process.env, BENCH_COMMAND: `npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}` }, timeout: 60 * 60 * 1000,
  });
  console.log(`=== bench: ${name} ${r.status === 0 ? 'done' : `FAILED (exit ${r.status ?? r.signal})`} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return r.status === 0;
}

let ok = true;
if (!reportOnly) {
  if (!only || only === 'api') ok = run('API', 'api-bench.ts') && ok;
  if (!only || only === 'web') ok = run('web', 'web-bench.ts', only ? args.filter((a, i) => ['--products', '--db'].includes(args[i - 1]) || ['--products', '--db'].includes(a)) : []) && ok;
  if (!only || only === 'engines') ok = run('engines', 'engine-bench.ts') && ok;
  if (!only || only === 'stock') ok = run('stock', 'stock-bench.ts') && ok;
  if (!only || only === 'reports') ok = run('reports', 'reports-bench.ts') && ok;
  if (only === 'bundle') ok = run('web bundle', 'web-bench.ts', ['--bundle-only']) && ok;
  if (!only || only === 'openloop') ok = run('open loop', 'open-loop.ts', args.filter((a, i) => ['--products', '--rates', '--step-seconds', '--db', '--over'].includes(args[i - 1]) || ['--products', '--rates', '--step-seconds', '--db', '--over'].includes(a))) && ok;
  if (!only || only === 'processes') {
    const pass = ['--processes', '--pool-total', '--pool-each', '--runs', '--seconds'];
    ok = run('API processes', 'multi-process.ts', only ? args.filter((a, i) => pass.includes(args[i - 1]) || pass.includes(a)) : []) && ok;
  }
}

// ------------------------------------------------------------------ report
const read = (f) => { try { return JSON.parse(fs.readFileSync(path.join(outDir, f), 'utf8')); } catch { return null; } };
// The till at other catalogue sizes (`--only web --products N`) beside the 100k run.
// The till and the open loop at other catalogue sizes (`--only web|openloop --products N`) beside the 100k runs.
const sizes = (prefix) => (fs.existsSync(outDir) ? fs.readdirSync(outDir).filter((f) => new RegExp(`^${prefix}-\\d+\\.json$`).test(f)).sort() : []);
const parts = [read('api.json'), ...sizes('history').map(read), read('web.json'), ...sizes('web').map(read), read('engines.json'), read('stock.json'), read('reports.json'), ...sizes('reports').map(read),
  read('openloop.json'), ...sizes('openloop').map(read), read('processes.json')].filter(Boolean);
if (!parts.length) { console.error('no results in bench/out'); process.exit(1); }
let baseline = null;
try { baseline = JSON.parse(fs.readFileSync(path.join(root, 'bench', 'baseline.json'), 'utf8')); } catch { /* none yet */ }
const baseBy = new Map((baseline?.metrics ?? []).map((m) => [m.id, m]));

const fmt = (v) => (v === null || v === undefined || Number.isNaN(v) ? '—' : String(v));
function verdict(m) {
  if (m.skipped) return 'not measured';
  if (!m.limit) return 'info';
  const v = m.on === 'p95' ? m.p95 : m.median;
  if (v === null || v === undefined || !Number.isFinite(v)) return 'FAIL';
  const pass = m.limit.op === '<=' ? v <= m.limit.value : v >= m.limit.value;
  if (pass) return 'pass';
  const by = m.limit.op === '<=' ? `${(v / m.limit.value).toFixed(1)}× over` : `${(v / m.limit.value).toFixed(2)}× of target`;
  return `FAIL (${by})`;
}

const cores = os.cpus().length;
const memGb = (os.totalmem() / 1024 ** 3).toFixed(1);
const lines = [];
lines.push('# Bench results');
lines.push('');
lines.push(`Machine: **${cores} cores** (${os.cpus()[0]?.model ?? '?'}), **${memGb} GB** memory, ${os.type()} ${os.release()}, Node ${process.version}. `
  + 'Server, PostgreSQL, the load generator and the browser all run on this one machine.');
const partName = { 'web-1000000': 'Web half at 1,000,000 products', 'openloop-1000000': 'Open-loop overload at 1,000,000 products', 'reports-10000000': 'Reports part at 10,000,000 orders', 'history-10000000': 'Sale history at 10,000,000 orders', web: 'Web half', api: 'API half', engines: 'Engines part', stock: 'Stock part', reports: 'Reports part', openloop: 'Open-loop overload', processes: 'API processes' };
for (const p of parts) lines.push(`- ${partName[p.part] ?? p.part}: ${p.at}${p.command ? ` (\`${p.command}\`)` : ''}${p.quick ? ' (**--quick**: smaller data, not the budget scale)' : ''}`);
const api = parts.find((p) => p.part === 'api');
if (api?.postgres) lines.push(`- PostgreSQL: ${Object.entries(api.postgres).map(([k, v]) => `${k}=${v}`).join(', ')}; PGOPTIONS=\`${api.env?.PGOPTIONS || ''}\`, PG_POOL_MAX=${api.env?.PG_POOL_MAX}`);
lines.push('');
lines.push('`median` and `p95` are medians over the runs of each run\'s p50 and p95 (for one-number metrics: the median run and the worst run, see note). '
  + '`bg` = share of the CPUs busy with other work just before the measurement (a shared machine: above ~30% the figures are pessimistic).');
lines.push('');
const header = `| metric | budget | median | p95 | result | runs | bg |${baseline ? ' before (p95 / median) |' : ''} note |`;
let section = null;
for (const p of parts) {
  for (const m of p.metrics) {
    if (m.section !== section) {
      section = m.section;
      lines.push('', `### ${section}`, '', header, `|---|---|---|---|---|---|---|${baseline ? '---|' : ''}---|`);
    }
    const b = baseBy.get(m.id);
    const before = baseline ? ` ${b ? `${fmt(b.p95)} / ${fmt(b.median)}` : '—'} |` : '';
    const note = (m.skipped ? `not measured: ${m.skipped}` : m.note ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
    lines.push(`| ${m.metric.replace(/\|/g, '\\|')} | ${m.budget} | ${m.skipped ? '—' : `${fmt(m.median)} ${m.unit}`} | ${m.skipped ? '—' : `${fmt(m.p95)} ${m.unit}`} | ${verdict(m)} | ${m.runs || '—'} | ${m.backgroundBusy === undefined || Number.isNaN(m.backgroundBusy) ? '—' : `${m.backgroundBusy}%`} |${before} ${note} |`);
  }
}
const all = parts.flatMap((p) => p.metrics);
const failed = all.filter((m) => verdict(m).startsWith('FAIL'));
const notMeasured = all.filter((m) => m.skipped);
lines.push('');
lines.push(`**${all.filter((m) => verdict(m) === 'pass').length} pass, ${failed.length} fail, ${notMeasured.length} not measured.**`);
const md = lines.join('\n') + '\n';
fs.writeFileSync(path.join(root, 'bench', 'results.md'), md);
console.log('\n' + md);
console.log('written: bench/results.md');

if (args.includes('--save-baseline')) {
  fs.writeFileSync(path.join(root, 'bench', 'baseline.json'), JSON.stringify({ at: new Date().toISOString(), metrics: all }, null, 2));
  console.log('saved: bench/baseline.json');
}
// Keep every run for before/after comparisons.
fs.mkdirSync(path.join(outDir, 'history'), { recursive: true });
fs.writeFileSync(path.join(outDir, 'history', `${new Date().toISOString().replace(/[:.]/g, '-')}${quick ? '-quick' : ''}.json`), JSON.stringify({ parts }, null, 2));
process.exit(ok ? 0 : 1);
