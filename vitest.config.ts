import { defineConfig } from 'vitest/config';

// One config, three projects: pure domain maths, the API against real databases, the web app in jsdom.
export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'domain', include: ['packages/domain/src/**/*.test.ts'], environment: 'node' },
      },
      {
        test: {
          name: 'api',
          include: ['apps/api/src/**/*.test.ts', 'apps/api/test/**/*.test.ts'],
          environment: 'node',
          // One PostgreSQL per run (the shop's embedded engine, or TEST_DB=postgres) and the template
          // databases every test app is cloned from.
          globalSetup: ['apps/api/test/global-setup.ts'],
          // Fails a test that sends a query to a connection already running one (pg@9: an error).
          setupFiles: ['apps/api/test/setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each test file builds its own app on its own database; files run in parallel forks.
          pool: 'forks',
          maxWorkers: 2,
        },
      },
      './apps/web/vitest.config.ts',
    ],
  },
});
