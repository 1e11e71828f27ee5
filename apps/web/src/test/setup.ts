import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import i18n from 'i18next';
import { ALL_NAMESPACES, i18nReady } from '@/lib/i18n';

// Every namespace in English before any test: a component rendered alone has no Suspense boundary
// to wait in (in the app, back-office screens load theirs lazily, see lib/i18n.ts).
await i18nReady;
await i18n.loadNamespaces(ALL_NAMESPACES);

// No vitest globals here, so Testing Library cannot register its own cleanup: unmount after each test.
// A language picked while signed out is kept in sessionStorage for the next sign-in (lib/i18n.ts):
// registered first, this runs after a file's own afterEach, so a reset to English there cannot
// become the next test's sign-in choice.
afterEach(() => {
  cleanup();
  sessionStorage.clear();
});
