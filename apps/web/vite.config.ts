import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Chunks: the entry holds login + till; React, the router, the query cache and i18n are split into
// long-cached vendor chunks. Everything reached through a dynamic import() (back office, charts,
// tables) stays in its own lazy chunk, so the till does not pay for it.
const vendorGroups: Array<{ name: string; test: RegExp }> = [
  { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
  { name: 'query', test: /[\\/]node_modules[\\/]@tanstack[\\/](react-query|query-core)[\\/]/ },
  { name: 'i18n', test: /[\\/]node_modules[\\/](i18next|react-i18next|html-parse-stringify|void-elements)[\\/]/ },
  { name: 'forms', test: /[\\/]node_modules[\\/](react-hook-form|@hookform)[\\/]/ },
  { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/ },
  { name: 'dexie', test: /[\\/]node_modules[\\/]dexie[\\/]/ },
];

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
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
});
