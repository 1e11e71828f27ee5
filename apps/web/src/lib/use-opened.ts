import { useState } from 'react';

/**
 * True from the first render where `open` is true, then for good: a lazily loaded dialog is
 * mounted (and its chunk downloaded) only when first opened, then stays mounted like any other,
 * so it keeps its state and its closing behaviour between openings.
 */
export function useOpened(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
