import { afterEach, beforeEach, vi } from 'vitest';
import { signIn } from '@/features/list-table/testing/fake-api';

/**
 * For tests of a screen that fetches a PDF and opens it in a new window (labels): signs an Owner of
 * Main Street in, stubs fetch and window.open, and makes blob URLs 'blob:labels'. Call at the top
 * of the test file; the mocks are reset before each test.
 */
export function stubPdfWindow() {
  const fetchMock = vi.fn<typeof fetch>();
  const open = vi.fn();
  beforeEach(() => {
    signIn();
    fetchMock.mockReset();
    open.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('open', open);
    URL.createObjectURL = vi.fn(() => 'blob:labels');
    URL.revokeObjectURL = vi.fn();
  });
  afterEach(() => vi.unstubAllGlobals());
  return { fetchMock, open };
}
