import { useCallback, useState, type RefObject } from 'react';

export interface FixedRows {
  /** The rows to render: [start, end). */
  start: number;
  end: number;
  /** Height of all rows (px). */
  total: number;
  /** The scroller's onScroll. */
  onScroll: (scrollTop: number) => void;
  /** Scrolls as little as needed to show row `index` whole. */
  scrollToIndex: (index: number) => void;
  scrollToTop: () => void;
}

/**
 * Windowing for rows of one fixed height: the rows a scroller of `height` px shows (plus `overscan`
 * on each side), from its scroll offset alone, so a render costs the rows on screen whatever the
 * count. The item search's first key matches most of the catalogue (80,000 rows at 100,000
 * products): a general virtualiser kept a measurement per row and rebuilt them all on each answer.
 */
export function useFixedRows({ count, rowHeight, height, overscan, scroller }: {
  count: number;
  rowHeight: number;
  height: number;
  overscan: number;
  scroller: RefObject<HTMLElement | null>;
}): FixedRows {
  const [offset, setOffset] = useState(0);
  const first = Math.floor(offset / rowHeight);
  const start = Math.min(count, Math.max(0, first - overscan));
  const end = Math.min(count, first + Math.ceil(height / rowHeight) + 1 + overscan);
  const scrollToIndex = useCallback((index: number) => {
    const el = scroller.current;
    if (!el) return;
    const top = index * rowHeight;
    const view = el.clientHeight || height;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + rowHeight > el.scrollTop + view) el.scrollTop = top + rowHeight - view;
  }, [scroller, rowHeight, height]);
  const scrollToTop = useCallback(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
  }, [scroller]);
  return { start, end, total: count * rowHeight, onScroll: setOffset, scrollToIndex, scrollToTop };
}
