import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/**
 * A dependency loaded on first use instead of at start (issue 24: API memory): the PDF writer, the
 * barcode renderer, the canvas that draws Arabic receipts and the common-password list together
 * held ~60 MB of a server that had not printed or changed a password yet. Synchronous (`require`),
 * so a caller stays as it was; every one of these packages ships CommonJS.
 */
export function lazyModule<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireHere(id) as T);
}
