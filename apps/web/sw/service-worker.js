/* global self, caches, fetch, Request, Response, AbortController, setTimeout, clearTimeout */
/*
 * The till's service worker (issue 9): a till that was signed in reloads and sells with no network.
 * Built into dist/sw.js by the `pos-service-worker` plugin in vite.config.ts, which replaces the
 * manifest below with the build's files (index.html is cached as "/", every hashed asset under
 * /assets/, source maps excluded) and a version derived from their contents.
 *
 *   /api/*          never touched: always the network, never cached (sales go through the outbox)
 *   navigations     network first; no answer (or 502/503/504) -> the cached app shell
 *   /assets/*       cache first (hashed names never change), filled from the network on a miss
 *   other files     network first, cache as fallback
 *
 * A new build installs at once (skipWaiting) and keeps the previous shell cache too, so a page
 * still running the old build can load its lazy chunks; older caches are deleted.
 */
const MANIFEST = { version: 'dev', files: [] };
const PREFIX = 'pos-shell-';
const CACHE = `${PREFIX}${MANIFEST.version}`;
const SHELL = '/';
const NAV_TIMEOUT_MS = 5000;
// The server answers with `Vary: Origin` (CORS); module scripts send an Origin, the precache did not.
const MATCH = { ignoreVary: true };

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(MANIFEST.files.map((url) => new Request(url, { cache: 'reload' })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const shells = (await caches.keys()).filter((k) => k.startsWith(PREFIX) && k !== CACHE);
      // Keep the newest previous one (caches.keys() lists in creation order).
      for (const key of shells.slice(0, -1)) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

const unreachable = (response) => !response || [502, 503, 504].includes(response.status);

async function fetchWithTimeout(request, ms) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    return await fetch(request, { signal: controller.signal });
  } finally {
    clearTimeout(timer);
  }
}

async function navigate(request) {
  try {
    const response = await fetchWithTimeout(request, NAV_TIMEOUT_MS);
    if (!unreachable(response)) return response;
  } catch {
    // offline, server down, timeout: the cached shell below
  }
  const cached = (await caches.open(CACHE).then((c) => c.match(SHELL, MATCH))) ?? (await caches.match(SHELL, MATCH));
  return cached ?? new Response('Offline and the app is not cached yet.', { status: 503, headers: { 'content-type': 'text/plain' } });
}

async function cacheFirst(request) {
  const cached = await caches.match(request, MATCH);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const copy = response.clone();
    void caches.open(CACHE).then((c) => c.put(request, copy));
  }
  return response;
}

async function networkFirst(request) {
  try {
    const response = await fetch(request);
    if (!unreachable(response)) return response;
  } catch {
    // fall through to the cache
  }
  const cached = await caches.match(request, MATCH);
  if (cached) return cached;
  return new Response('', { status: 504 });
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname === '/api' || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') event.respondWith(navigate(request));
  else if (url.pathname.startsWith('/assets/')) event.respondWith(cacheFirst(request));
  else event.respondWith(networkFirst(request));
});
