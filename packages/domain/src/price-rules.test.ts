import { describe, expect, it } from 'vitest';
import { isoWeek } from './calendar.ts';
import { effectivePrice, normalizeTime, ruleMatches, variantPrice } from './price-rules.ts';
import type { PriceRuleInput } from './price-rules.ts';

// Friday 15 March 2024, 14:30 UTC: ISO week 11, month 3, quarter 1.
const NOW = new Date('2024-03-15T14:30:00Z');
const TZ = 'UTC';
const BASE = 1000;

describe('effectivePrice', () => {
  const r = (rule: Omit<PriceRuleInput, 'basePriceCents'>, basePriceCents: number | null = 800): PriceRuleInput => ({ ...rule, basePriceCents });
  const cases: Array<[string, PriceRuleInput[], number, Date?]> = [
    ['no rules', [], BASE],
    ['a rule without conditions always applies', [r({})], 800],
    ['date: same day of month, month ignored', [r({ date: '2024-01-15' })], 800],
    ['date: ISO date-time', [r({ date: '2023-07-15T00:00:00+02:00' })], 800],
    ['date: other day', [r({ date: '2024-03-16' })], BASE],
    ['day: weekday name', [r({ day: 'Friday' })], 800],
    ['day: case-insensitive', [r({ day: 'friday' })], 800],
    ['day: other weekday', [r({ day: 'Monday' })], BASE],
    ['week: ISO week', [r({ week: 11 })], 800],
    ['week: as string', [r({ week: '11' })], 800],
    ['week: other', [r({ week: 12 })], BASE],
    ['month', [r({ month: 3 })], 800],
    ['month: other', [r({ month: 4 })], BASE],
    ['quarter', [r({ quarter: 1 })], 800],
    ['quarter: other', [r({ quarter: 2 })], BASE],
    ['time window', [r({ time: '14:00', timeTo: '15:00' })], 800],
    ['time window inclusive bounds', [r({ time: '14:30', timeTo: '14:30' })], 800],
    ['time window later', [r({ time: '15:00', timeTo: '16:00' })], BASE],
    ['time window earlier', [r({ time: '09:00', timeTo: '14:29' })], BASE],
    // the reference's inverted check (time >= now && timeTo <= now) would match this one
    ['inverted bounds are a midnight-crossing window', [r({ time: '15:00', timeTo: '14:00' })], BASE],
    ['midnight window, afternoon', [r({ time: '22:00', timeTo: '02:00' })], BASE],
    ['midnight window, late evening', [r({ time: '22:00', timeTo: '02:00' })], 800, new Date('2024-03-15T23:30:00Z')],
    ['midnight window, early morning', [r({ time: '22:00', timeTo: '02:00' })], 800, new Date('2024-03-16T01:00:00Z')],
    ['only a start time', [r({ time: '14:00' })], 800],
    ['only an end time', [r({ timeTo: '14:00' })], BASE],
    ['ISO date-time times', [r({ time: '1970-01-01T14:00:00+00:00', timeTo: '1970-01-01T15:00:00+00:00' })], 800],
    ['seconds in times', [r({ time: '14:30:00', timeTo: '14:30:59' })], 800],
    ['unreadable time never matches', [r({ time: 'noon' })], BASE],
    ['all conditions must match', [r({ day: 'Friday', month: 4 })], BASE],
    ['all conditions match', [r({ day: 'Friday', month: 3, quarter: 1, week: 11, date: '2024-03-15', time: '14:00', timeTo: '15:00' })], 800],
    ['rules without basePrice are skipped', [r({ day: 'Friday' }, null), r({}, 700)], 700],
    ['first match wins', [r({ day: 'Friday' }, 800), r({ month: 3 }, 700)], 800],
    ['later rule when the first does not match', [r({ day: 'Monday' }, 800), r({ month: 3 }, 700)], 700],
    ['empty strings count as not given', [r({ date: '', day: '', time: '', timeTo: '' })], 800],
    ['nulls count as not given', [r({ date: null, day: null, week: null, month: null, quarter: null })], 800],
    ['a rule price of 0 is a price', [r({}, 0)], 0],
  ];
  it.each(cases)('%s', (_name, rules, expected, now = NOW) => {
    expect(effectivePrice(BASE, rules, now, TZ)).toBe(expected);
  });

  it('uses the given time zone', () => {
    // 23:30 UTC Friday is 04:30 Saturday 16 March in Karachi (UTC+5)
    const now = new Date('2024-03-15T23:30:00Z');
    const rules: PriceRuleInput[] = [{ day: 'Saturday', date: '2024-03-16', time: '04:00', timeTo: '05:00', basePriceCents: 800 }];
    expect(effectivePrice(BASE, rules, now, 'Asia/Karachi')).toBe(800);
    expect(effectivePrice(BASE, rules, now, 'UTC')).toBe(BASE);
  });

  it('uses the local clock by default', () => {
    const localNow = new Date(2024, 2, 15, 14, 30); // Friday 15 March 2024, 14:30 local
    expect(effectivePrice(BASE, [{ day: 'Friday', date: '2024-05-15', time: '14:00', timeTo: '15:00', basePriceCents: 800 }], localNow)).toBe(800);
    expect(ruleMatches({ day: 'Thursday' }, localNow)).toBe(false);
  });

  it('accepts null rules', () => {
    expect(effectivePrice(BASE, null, NOW)).toBe(BASE);
  });
});

describe('variantPrice', () => {
  const rules: PriceRuleInput[] = [{ day: 'Friday', basePriceCents: 800 }];
  it.each([
    [null, 800],
    [undefined, 800],
    [1500, 1500],
    [0, 0],
  ] as Array<[number | null | undefined, number]>)('variant price %j -> %i', (variant, expected) => {
    expect(variantPrice(variant, BASE, rules, NOW, TZ)).toBe(expected);
  });
});

describe('isoWeek', () => {
  it.each([
    [2024, 3, 15, 11],
    [2024, 1, 1, 1],
    [2021, 1, 1, 53],
    [2020, 12, 31, 53],
    [2024, 12, 30, 1],
    [2026, 1, 1, 1],
    [2027, 1, 3, 53],
  ])('%i-%i-%i is week %i', (y, m, d, week) => {
    expect(isoWeek(y, m, d)).toBe(week);
  });
});

describe('normalizeTime', () => {
  it.each([
    ['9:05', '09:05'],
    ['09:05:30', '09:05'],
    ['1970-01-01T21:15:00+00:00', '21:15'],
    ['24:00', null],
    ['abc', null],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeTime(input)).toBe(expected);
  });
});

describe('price rules in the store time zone (issue 19)', () => {
  const rules = [
    { basePriceCents: 100, day: 'Thursday' },
    { basePriceCents: 200, time: '23:00', timeTo: '01:00' },
  ];
  it('Pacific/Auckland across midnight: the weekday and the time window follow the shop clock', () => {
    // 2026-11-25T10:59Z = Wed 23:59 NZDT; 11:00Z = Thu 00:00 NZDT (the server may run in UTC: still Wednesday there).
    expect(effectivePrice(999, rules, new Date('2026-11-25T10:59:00Z'), 'Pacific/Auckland')).toBe(200);
    expect(effectivePrice(999, rules, new Date('2026-11-25T11:00:00Z'), 'Pacific/Auckland')).toBe(100);
    expect(effectivePrice(999, rules, new Date('2026-11-25T11:00:00Z'), 'UTC')).toBe(999);
    // NZ daylight saving starts 2026-09-27 02:00 NZST -> 03:00 NZDT: 13:30Z is 01:30 NZST, 14:30Z is 03:30 NZDT.
    expect(ruleMatches({ time: '01:00', timeTo: '01:59' }, new Date('2026-09-26T13:30:00Z'), 'Pacific/Auckland')).toBe(true);
    expect(ruleMatches({ time: '03:00', timeTo: '03:59' }, new Date('2026-09-26T14:30:00Z'), 'Pacific/Auckland')).toBe(true);
  });
  it('America/Los_Angeles across the end of daylight saving: 01:30 happens twice, both on Sunday', () => {
    expect(ruleMatches({ day: 'Sunday', time: '01:00', timeTo: '01:59' }, new Date('2026-11-01T08:30:00Z'), 'America/Los_Angeles')).toBe(true); // PDT
    expect(ruleMatches({ day: 'Sunday', time: '01:00', timeTo: '01:59' }, new Date('2026-11-01T09:30:00Z'), 'America/Los_Angeles')).toBe(true); // PST
    expect(ruleMatches({ day: 'Saturday' }, new Date('2026-11-01T06:59:00Z'), 'America/Los_Angeles')).toBe(true);
    expect(ruleMatches({ day: 'Sunday' }, new Date('2026-11-01T07:00:00Z'), 'America/Los_Angeles')).toBe(true);
    expect(ruleMatches({ month: 10 }, new Date('2026-11-01T06:59:00Z'), 'America/Los_Angeles')).toBe(true);
    expect(ruleMatches({ quarter: 4, week: 44 }, new Date('2026-11-01T07:00:00Z'), 'America/Los_Angeles')).toBe(true);
  });
});
