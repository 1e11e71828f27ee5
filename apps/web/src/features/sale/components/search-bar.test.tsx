import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import type { Product } from '@/features/catalogue-cache/types';
import { listSource } from '@/features/item-search/hooks/use-item-search';
import { useScanSuggestions } from '@/features/sale/hooks/use-scan-suggestions';
import { SearchBar } from './search-bar';

vi.setConfig({ testTimeout: 20_000 });

const products: Product[] = [
  { id: 1, name: 'Milk 1L', barcode: '5000001', basePrice: 1.5 },
  { id: 2, name: 'Milk Chocolate', barcode: '5000002', basePrice: 2 },
  { id: 3, name: 'Bread', barcode: '5000003', basePrice: 1 },
];
const byId = new Map(products.map((p) => [p.id, p]));
const source = listSource(products);

/** The box over the real type-ahead (the in-thread search index: jsdom has no Worker). */
function Harness({ onScan, onPick }: { onScan: (code: string) => void; onPick: (p: Product) => void }) {
  const [query, setQuery] = useState('');
  const { suggestions, suggestFor, onSuggest } = useScanSuggestions({ source, version: 'test', byId, facets: null });
  return (
    <SearchBar
      query={query}
      quantity="1"
      onQueryChange={setQuery}
      onQuantityChange={() => undefined}
      onScan={(c) => { onScan(c); setQuery(''); }}
      onPick={(p) => { onPick(p); setQuery(''); }}
      onRefund={() => undefined}
      onReorder={() => undefined}
      onOpenSearch={() => undefined}
      suggestions={suggestions}
      suggestFor={suggestFor}
      onSuggest={onSuggest}
      isExact={(code) => products.some((p) => p.barcode === code)}
    />
  );
}

// The box tells a person from a scanner by the time between keys: a clock that moves `gap` ms per key.
let gap = 120;
let clock = 0;
const tick = () => { clock += gap; };
beforeEach(() => {
  gap = 120;
  document.addEventListener('keydown', tick, true);
  vi.spyOn(Date, 'now').mockImplementation(() => clock); // jsdom stamps events with Date.now()
});
afterEach(() => {
  document.removeEventListener('keydown', tick, true);
  vi.restoreAllMocks();
});

function setup() {
  const onScan = vi.fn();
  const onPick = vi.fn();
  renderWithProviders(<Harness onScan={onScan} onPick={onPick} />);
  return { onScan, onPick, box: screen.getByRole('combobox', { name: 'Search' }) };
}

describe('scan box type-ahead', () => {
  it('lists the matches of typed text; arrows move the highlight, Enter adds the highlighted one', async () => {
    const { onScan, onPick, box } = setup();
    expect(box).toHaveAttribute('aria-expanded', 'false');
    await userEvent.type(box, 'milk');
    const list = await screen.findByRole('listbox', { name: 'Matching items' });
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(2));
    expect(box).toHaveAttribute('aria-expanded', 'true');
    expect(box).toHaveAttribute('aria-controls', list.id);
    expect(box).not.toHaveAttribute('aria-activedescendant');
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    const options = screen.getAllByRole('option');
    expect(options[1]).toHaveAttribute('aria-selected', 'true');
    expect(box).toHaveAttribute('aria-activedescendant', options[1].id);
    await userEvent.keyboard('{ArrowDown}'); // wraps to the first
    expect(screen.getAllByRole('option')[0]).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{ArrowUp}{Enter}');
    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ id: 2, name: 'Milk Chocolate' }));
    expect(onScan).not.toHaveBeenCalled();
    expect(box).toHaveValue('');
    expect(box).toHaveAttribute('aria-expanded', 'false');
  });

  it('Enter with nothing highlighted scans the text as before; Escape closes the list, a second one empties the box', async () => {
    const { onScan, onPick, box } = setup();
    await userEvent.type(box, 'brea');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
    await userEvent.keyboard('{Escape}');
    expect(box).toHaveAttribute('aria-expanded', 'false');
    expect(box).toHaveValue('brea');
    // Typing again opens it again, even back to the same text.
    await userEvent.type(box, 'd{Backspace}');
    await waitFor(() => expect(box).toHaveAttribute('aria-expanded', 'true'));
    await userEvent.keyboard('{Escape}');
    expect(box).toHaveAttribute('aria-expanded', 'false');
    await userEvent.keyboard('{Escape}');
    expect(box).toHaveValue('');
    await userEvent.type(box, 'bread');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
    await userEvent.keyboard('{Enter}');
    expect(onScan).toHaveBeenCalledWith('bread');
    expect(onPick).not.toHaveBeenCalled();
  });

  it('a tap on a match adds it', async () => {
    const { onPick, box } = setup();
    await userEvent.type(box, 'choc');
    await userEvent.click(await screen.findByRole('option', { name: /Milk Chocolate/ }));
    expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ id: 2 }));
  });

  it("a scanner's fast keys list nothing, even after a pause, and their Enter scans the text", async () => {
    const { onScan, onPick, box } = setup();
    gap = 8; // a USB scanner: a key every few ms
    await userEvent.type(box, '50000');
    // Typed by hand, this prefix lists every product after the pause; scanned, nothing is asked for.
    await new Promise((r) => setTimeout(r, 400));
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    expect(box).toHaveAttribute('aria-expanded', 'false');
    await userEvent.type(box, '01{Enter}');
    expect(onScan).toHaveBeenCalledWith('5000001');
    expect(onPick).not.toHaveBeenCalled();
  });

  it('the same prefix typed by hand lists its matches', async () => {
    setup();
    await userEvent.type(screen.getByRole('combobox', { name: 'Search' }), '50000');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(3));
  });

  it('an exact barcode typed by hand is scanned even with a match highlighted', async () => {
    const { onScan, onPick, box } = setup();
    await userEvent.type(box, '5000003');
    await waitFor(() => expect(screen.getAllByRole('option').length).toBeGreaterThan(0));
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(onScan).toHaveBeenCalledWith('5000003');
    expect(onPick).not.toHaveBeenCalled();
  });
});
