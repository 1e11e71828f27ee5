import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Offline till (issue 9): writes dist/sw.js from sw/service-worker.js with the build's manifest:
 * the app shell ("/" = index.html) and every emitted file except source maps, and a version hashed
 * from their contents (a new build = a new service worker and a new cache).
 */
function serviceWorker(): Plugin {
  let outDir = 'dist';
  return {
    name: 'pos-service-worker',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      const names = Object.keys(bundle).sort();
      const hash = createHash('sha256');
      for (const name of names) {
        const item = bundle[name];
        hash.update(name).update(item.type === 'chunk' ? item.code : item.source);
      }
      const files = ['/', ...names.filter((n) => !n.endsWith('.map') && n !== 'index.html' && n !== 'sw.js').map((n) => `/${n}`)];
      const manifest = { version: hash.digest('hex').slice(0, 16), files };
      const template = readFileSync(fileURLToPath(new URL('./sw/service-worker.js', import.meta.url)), 'utf8');
      const marker = "{ version: 'dev', files: [] }";
      if (!template.includes(marker)) throw new Error('sw/service-worker.js: manifest marker missing');
      writeFileSync(path.join(outDir, 'sw.js'), template.replace(marker, JSON.stringify(manifest)));
    },
  };
}

// react-router ships its development build under every import condition; production builds take
// its production files (no dev warnings, smaller).
const reactRouterProduction = [
  { find: /^react-router$/, replacement: fileURLToPath(new URL('../../node_modules/react-router/dist/production/index.mjs', import.meta.url)) },
  { find: /^react-router\/dom$/, replacement: fileURLToPath(new URL('../../node_modules/react-router/dist/production/dom-export.mjs', import.meta.url)) },
];

// Chunks: the entry holds login + till; React, the router, the query cache and i18n are split into
// long-cached vendor chunks. Everything reached through a dynamic import() (back office, charts,
// tables) stays in its own lazy chunk, so the till does not pay for it.
const vendorGroups: Array<{ name: string; test: RegExp }> = [
  { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
  { name: 'query', test: /[\\/]node_modules[\\/]@tanstack[\\/](react-query|query-core)[\\/]/ },
  { name: 'i18n', test: /[\\/]node_modules[\\/](i18next|react-i18next|html-parse-stringify|void-elements)[\\/]/ },
  { name: 'forms', test: /[\\/]node_modules[\\/](react-hook-form|@hookform)[\\/]/ },
  { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/ },
];

// The browser runs our React components on Preact's React compatibility layer (preact/compat, 11):
// react-dom is ~55 KB brotli of the 150 KB budget for sign-in + till, preact/compat ~7 KB
// (issue 20/24; measured in docs/performance.md). Preact 11 passes `ref` as a prop like React 19.
// The dev server and the build both use it, so what a developer sees is what ships; the web
// component tests (vitest, jsdom) run on React 19, the Playwright journeys on the shipped build.
const preactCompat = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];

export default defineConfig(({ command }) => ({
  plugins: [react(), serviceWorker()],
  resolve: {
    alias: [
      { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
      ...(command === 'build' ? reactRouterProduction : []),
      ...preactCompat,
    ],
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8000', changeOrigin: false } },
  },
  preview: {
    proxy: { '/api': { target: 'http://127.0.0.1:8000', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: vendorGroups.map((g) => ({ name: g.name, test: g.test })),
        },
      },
    },
  },
}));
