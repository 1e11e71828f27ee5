import { describe, expect, it } from 'vitest';
import { relativeTime, toDateTimeLocal, todayRange, wireDate, yesterdayTodayRange } from './dates.ts';

describe('dates', () => {
  it('formats datetime-local values', () => {
    expect(toDateTimeLocal(new Date(2024, 2, 5, 14, 7))).toBe('2024-03-05T14:07');
  });
  it('gives the sale history default range', () => {
    expect(yesterdayTodayRange(new Date(2024, 2, 5, 10, 0))).toEqual({ from: '2024-03-04T00:00', to: '2024-03-05T23:59' });
  });
  it("takes the store's days, not the device's, across midnight and a DST change (issue 19)", () => {
    // 11:30 UTC on 5 March 2024 is already 00:30 on the 6th in Auckland (NZDT, +13), still the 5th in Los Angeles.
    const now = new Date('2024-03-05T11:30:00Z');
    expect(yesterdayTodayRange(now, 'Pacific/Auckland')).toEqual({ from: '2024-03-05T00:00', to: '2024-03-06T23:59' });
    expect(yesterdayTodayRange(now, 'America/Los_Angeles')).toEqual({ from: '2024-03-04T00:00', to: '2024-03-05T23:59' });
    expect(todayRange(now, 'Pacific/Auckland')).toEqual({ from: '2024-03-06T00:00', to: '2024-03-06T23:59' });
    // Los Angeles springs forward at 02:00 on 10 March: 07:30 UTC is 23:30 PST on the 9th, 08:30 UTC is 00:30 PST on the 10th.
    expect(todayRange(new Date('2024-03-10T07:30:00Z'), 'America/Los_Angeles').from).toBe('2024-03-09T00:00');
    expect(todayRange(new Date('2024-03-10T08:30:00Z'), 'America/Los_Angeles').from).toBe('2024-03-10T00:00');
    expect(todayRange(new Date('2024-03-10T10:30:00Z'), 'America/Los_Angeles').from).toBe('2024-03-10T00:00'); // 03:30 PDT
    // Auckland falls back at 03:00 on 7 April 2024: 14:30 UTC on the 6th is 02:30 NZST on the 7th.
    expect(yesterdayTodayRange(new Date('2024-04-06T14:30:00Z'), 'Pacific/Auckland')).toEqual({ from: '2024-04-06T00:00', to: '2024-04-07T23:59' });
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
