import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// No vitest globals here, so Testing Library cannot register its own cleanup: unmount after each test.
afterEach(() => cleanup());
