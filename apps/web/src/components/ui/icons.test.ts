import { describe, expect, it } from 'vitest';

/**
 * No emoji in what the app shows (issue 23.6): a till or tablet without a colour-emoji font (Debian's
 * Chromium, many kiosks) draws them as empty boxes. Icons are inline SVG (components/ui/icons.tsx).
 * Pictographs live above U+1F000; the BMP symbols in use (☰ ✎ ⚙ ✓ ×) are in every system font.
 */
const sources = import.meta.glob<string>('../../**/*.{ts,tsx,json}', { query: '?raw', import: 'default', eager: true });
const EMOJI = /[\u{1F000}-\u{1FAFF}]/u;

describe('no emoji boxes', () => {
  it('reads the app sources', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(100);
  });

  it('no source file or translation shows an emoji', () => {
    const found = Object.entries(sources)
      .filter(([file]) => !/\.test\.tsx?$/.test(file))
      .flatMap(([file, text]) => text.split('\n').map((line, i) => [file, i + 1, line] as const))
      .filter(([, , line]) => EMOJI.test(line))
      .map(([file, n, line]) => `${file}:${n}: ${line.trim()}`);
    expect(found).toEqual([]);
  });
});
