/**
 * A store's money settings (issue 19): currency (ISO 4217), locale (BCP 47), time zone (IANA),
 * cash rounding step (integer MINOR units of the currency, 0 = none), whether shelf prices include
 * tax, and the legacy tax base (the reference client's order of operations). Shared by the server
 * (validation of the store body, pricing) and the till (typing of the store resource).
 */
import { z } from 'zod';
import { isCurrencyCode, isLocaleTag, isTimeZone } from './currency.ts';

export interface StoreMoneySettings {
  currency: string;
  locale: string;
  timeZone: string;
  /** Cash rounding step in minor units of `currency` (5 = 0.05 USD); 0 = no rounding. */
  cashRoundingStep: number;
  pricesIncludeTax: boolean;
  legacyTaxBase: boolean;
  /** The largest line or order discount in percent without the 'discount.overLimit' permission (issue 21.1). */
  maxDiscountPercent: number;
}

/** What a store had before these settings existed: nothing changes silently. */
export const DEFAULT_STORE_SETTINGS: StoreMoneySettings = {
  currency: 'USD',
  locale: 'en-US',
  timeZone: 'UTC',
  cashRoundingStep: 0,
  pricesIncludeTax: false,
  legacyTaxBase: false,
  maxDiscountPercent: 20,
};

/** The largest rounding step accepted, in minor units (10,000 major units of a 2-digit currency). */
export const MAX_ROUNDING_STEP = 1_000_000;

export const STORE_SETTING_MESSAGES = {
  currency: 'This value is not a valid currency (ISO 4217 code such as USD).',
  locale: 'This value is not a valid locale (BCP 47 tag such as en-US).',
  timeZone: 'This value is not a valid time zone (IANA name such as Europe/Paris).',
  cashRoundingStep: `The cash rounding step is a whole number of minor units of the currency, from 0 (none) to ${MAX_ROUNDING_STEP}.`,
  flag: 'This value should be of type boolean.',
  maxDiscountPercent: 'The discount limit is a whole percent from 0 to 100.',
} as const;

const booleanField = z.boolean({ error: STORE_SETTING_MESSAGES.flag });

/**
 * The settings fields of a store body (POST / PUT / PATCH /api/stores). Every field optional; a
 * PUT merges. A rounding step is an integer number of minor units, so whatever the currency it is
 * expressible in it (0.5 minor units is refused).
 */
export const storeSettingsFields = {
  currency: z.unknown().transform((v, ctx) => {
    const code = typeof v === 'string' ? v.trim().toUpperCase() : v;
    if (!isCurrencyCode(code)) { ctx.addIssue({ code: 'custom', message: STORE_SETTING_MESSAGES.currency }); return z.NEVER; }
    return code;
  }).optional(),
  locale: z.unknown().transform((v, ctx) => {
    if (!isLocaleTag(typeof v === 'string' ? v.trim() : v)) { ctx.addIssue({ code: 'custom', message: STORE_SETTING_MESSAGES.locale }); return z.NEVER; }
    return Intl.getCanonicalLocales((v as string).trim())[0];
  }).optional(),
  timeZone: z.unknown().transform((v, ctx) => {
    if (!isTimeZone(typeof v === 'string' ? v.trim() : v)) { ctx.addIssue({ code: 'custom', message: STORE_SETTING_MESSAGES.timeZone }); return z.NEVER; }
    return (v as string).trim();
  }).optional(),
  cashRoundingStep: z.unknown().transform((v, ctx) => {
    const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_ROUNDING_STEP) {
      ctx.addIssue({ code: 'custom', message: STORE_SETTING_MESSAGES.cashRoundingStep });
      return z.NEVER;
    }
    return n;
  }).optional(),
  pricesIncludeTax: booleanField.optional(),
  legacyTaxBase: booleanField.optional(),
  maxDiscountPercent: z.unknown().transform((v, ctx) => {
    const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 100) {
      ctx.addIssue({ code: 'custom', message: STORE_SETTING_MESSAGES.maxDiscountPercent });
      return z.NEVER;
    }
    return n;
  }).optional(),
};

/** The settings of a stored row (missing fields take the defaults). */
export function storeSettingsOf(row: Partial<StoreMoneySettings> | null | undefined): StoreMoneySettings {
  return { ...DEFAULT_STORE_SETTINGS, ...Object.fromEntries(Object.entries(row ?? {}).filter(([, v]) => v !== null && v !== undefined)) };
}
