#!/usr/bin/env node
// `node bench/trace-summary.mjs <trace.json> [more.json]`: the main thread's complete events of a
// Chrome trace (bench/web-page.ts --trace) summed per name: count, total ms, and for style and layout
// the elements they touched. Two traces of the same phase on two trees show which work grew.
import fs from 'node:fs';

function summary(file) {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  const events = Array.isArray(raw) ? raw : raw.traceEvents;
  const names = new Map(events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
  const main = new Set([...names].filter(([, n]) => n === 'CrRendererMain').map(([k]) => k));
  const by = new Map();
  for (const e of events) {
    if (!main.has(`${e.pid}:${e.tid}`) || e.ph !== 'X' || typeof e.dur !== 'number') continue;
    const s = by.get(e.name) ?? { count: 0, ms: 0, elements: 0 };
    s.count++; s.ms += e.dur / 1000;
    const d = e.args?.elementCount ?? e.args?.endData?.layoutObjects ?? e.args?.beginData?.dirtyObjects ?? 0;
    s.elements += typeof d === 'number' ? d : 0;
    by.set(e.name, s);
  }
  return by;
}

const files = process.argv.slice(2);
const all = files.map(summary);
const keys = [...new Set(all.flatMap((m) => [...m.keys()]))]
  .sort((a, b) => Math.max(...all.map((m) => m.get(b)?.ms ?? 0)) - Math.max(...all.map((m) => m.get(a)?.ms ?? 0)))
  .slice(0, 30);
console.log(['event', ...files.map((f, i) => `#${i + 1} count / ms / elements`)].join(' | '));
for (const k of keys) console.log([k, ...all.map((m) => { const s = m.get(k); return s ? `${s.count} / ${s.ms.toFixed(1)} / ${s.elements}` : '-'; })].join(' | '));
