/**
 * The till's one voice for screen readers (issue 29.4, WCAG 4.1.3 Status Messages): a message put
 * here is read out by the live region (live-region.tsx) without moving focus. Polite messages wait
 * for the reader to finish; an assertive one (a refused sale) interrupts.
 */
import { createStore } from '@/features/catalogue-cache/create-store';

export type Politeness = 'polite' | 'assertive';

export interface Announcement {
  text: string;
  politeness: Politeness;
  /** Grows with every message, so the same text said twice is read twice. */
  seq: number;
}

export const announcements = createStore<Announcement>({ text: '', politeness: 'polite', seq: 0 });

export function announce(text: string, politeness: Politeness = 'polite'): void {
  if (!text) return;
  announcements.set((a) => ({ text, politeness, seq: a.seq + 1 }));
}
