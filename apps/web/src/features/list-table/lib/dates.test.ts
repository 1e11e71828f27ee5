import { describe, expect, it } from 'vitest';
import { relativeTime, toDateTimeLocal, wireDate, yesterdayTodayRange } from './dates.ts';

describe('dates', () => {
  it('formats datetime-local values', () => {
    expect(toDateTimeLocal(new Date(2024, 2, 5, 14, 7))).toBe('2024-03-05T14:07');
  });
  it('gives the sale history default range', () => {
    expect(yesterdayTodayRange(new Date(2024, 2, 5, 10, 0))).toEqual({ from: '2024-03-04T00:00', to: '2024-03-05T23:59' });
  });
  it('says relative times', () => {
    const now = new Date('2024-03-05T12:00:00Z');
    expect(relativeTime('2024-03-05T11:55:00Z', now)).toBe('5 minutes ago');
    expect(relativeTime('2024-03-03T12:00:00Z', now)).toBe('2 days ago');
    expect(relativeTime(null, now)).toBe('');
  });
  it('reads the datetime wrapper', () => {
    expect(wireDate({ datetime: '2024-01-01T00:00:00Z' })).toBe('2024-01-01T00:00:00Z');
    expect(wireDate('x')).toBe('x');
    expect(wireDate(null)).toBeNull();
  });
});
