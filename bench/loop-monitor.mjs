/**
 * Preloaded into the bench's server (`node --import bench/loop-monitor.mjs`, bench/open-loop.ts):
 * every 250 ms, one JSON line in $BENCH_LOOP_FILE with the API's event loop over that interval —
 * how busy it was (eventLoopUtilization, 0-1) and how late its timers ran (monitorEventLoopDelay,
 * p99 and max, ms, 1 ms resolution) and how long the server took over each 503 it answered, from
 * the request parsed to the answer written (`shed`, ms) — so the bench can say what a shed request
 * waited behind: the server's own work, or the loop before it read the request.
 */
import fs from 'node:fs';
import http from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setInterval } from 'node:timers';
import { isMainThread } from 'node:worker_threads';

const file = process.env.BENCH_LOOP_FILE;
// The API's own thread only: the server's front thread (net/front.ts) inherits this preload.
if (file && isMainThread) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let shed = [];
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, req, res) {
    if (event === 'request') {
      const t0 = performance.now();
      res.once('finish', () => { if (res.statusCode === 503) shed.push(Math.round((performance.now() - t0) * 100) / 100); });
    }
    return emit.apply(this, arguments);
  };
  let last = performance.eventLoopUtilization();
  setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    const line = { t: Date.now(), busy: Math.round(busy * 1000) / 1000, p99: Math.round(delay.percentile(99) / 1e4) / 100, max: Math.round(delay.max / 1e4) / 100, shed };
    shed = [];
    delay.reset();
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, 250).unref();
}
