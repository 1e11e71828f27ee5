/**
 * The item search off the main thread: holds the fuse.js index of the visible catalogue and
 * answers queries with the matching ids (as a transferable Int32Array), best first.
 */
import { SearchIndex } from './search-core';
import { changedEntries, recordAt, recordsOf, type SearchColumns, type SearchRequest, type SearchResponse, type SearchSettings } from './search-record';

// Typed by hand: the app's tsconfig carries the DOM lib, which clashes with the WebWorker lib.
interface WorkerScope {
  onmessage: ((event: MessageEvent<SearchRequest>) => void) | null;
  postMessage(message: SearchResponse, transfer?: Transferable[]): void;
}
const scope = self as unknown as WorkerScope;

let index: SearchIndex | null = null;
/** The columns and settings the index was built or last updated from. */
let held: { columns: SearchColumns; settings: SearchSettings } | null = null;
// Searches that queued up while one ran collapse into the latest: fast typing never builds a backlog.
let latest: Extract<SearchRequest, { type: 'search' }> | null = null;
let skipped: number[] = [];
let scheduled = false;

function runLatest() {
  scheduled = false;
  const msg = latest;
  latest = null;
  for (const seq of skipped) scope.postMessage({ type: 'result', seq, ids: new Int32Array(0), stale: true });
  skipped = [];
  if (!msg) return;
  const { ids, error } = index ? index.search(msg.query, msg.facets) : { ids: new Int32Array(0), error: undefined };
  const reply: SearchResponse = { type: 'result', seq: msg.seq, ids, error };
  scope.postMessage(reply, [ids.buffer]);
  later();
}

/**
 * The next slice of idle work, as soon as the worker is free: a message to itself, not a zero-delay
 * timer (timers nested five deep wait at least 4 ms: idle work ran half the time). A search
 * posted meanwhile is a message too, taken in arrival order.
 */
const tick = new MessageChannel();
tick.port1.onmessage = () => speculate();
const later = () => tick.port2.postMessage(null);

/**
 * Between keys: the next key's candidates, when it will allow one more error (SearchIndex.speculate),
 * in slices of a few ms; a search that arrives waits at most one slice.
 */
function speculate() {
  if (!index || latest) return; // a search is waiting: it goes first
  if (index.speculate(4)) later();
}

scope.onmessage = (event: MessageEvent<SearchRequest>) => {
  const msg = event.data;
  if (msg.type === 'index') {
    const { columns, settings } = msg;
    const same = index && held && held.settings.isCaseSensitive === settings.isCaseSensitive && held.settings.threshold === settings.threshold;
    const changed = same ? changedEntries(held!.columns, columns) : null;
    // A few products changed in place (a delta): only their records; else the index anew.
    if (index && changed && changed.length <= Math.max(1000, columns.positions.length / 20)) index.update(changed.map((k) => [k, recordAt(columns, k)] as const));
    else index = new SearchIndex(recordsOf(columns), settings);
    held = { columns, settings };
    const reply: SearchResponse = { type: 'indexed', version: msg.version, count: columns.positions.length };
    scope.postMessage(reply);
    return;
  }
  if (msg.type === 'search') {
    if (latest) skipped.push(latest.seq);
    latest = msg;
    if (!scheduled) {
      scheduled = true;
      setTimeout(runLatest, 0);
    }
  }
};
