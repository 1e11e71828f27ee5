/**
 * The stored form of a store's scale barcode rule (issue 26): the setting named `scale_barcode`
 * whose value is JSON `{prefixes, itemDigits, embeds, store?}`, decoded by `decodeScaleBarcode`
 * (barcode.ts). The server refuses a malformed rule with this schema and the back office checks
 * its form with it. Its own module so barcode.ts (the till's entry) stays without zod; the till's
 * reader (features/sale/scan.ts) checks the same shape by hand.
 */
import { z } from 'zod';
import { decodeScaleBarcode, gs1CheckDigit, type ScaleBarcode, type ScaleBarcodeRule } from './barcode.ts';

/** The setting's name (and type). */
export const SCALE_BARCODE_SETTING = 'scale_barcode';

export const SCALE_RULE_MESSAGES = {
  json: 'The scale barcode rule is a JSON object {prefixes, itemDigits, embeds, store?}.',
  prefixes: 'The prefixes are one to ten different two-digit codes from 20 to 29 (such as 21, 22).',
  itemDigits: 'The item code has 4, 5 or 6 digits.',
  embeds: 'The barcode embeds a price or a weight.',
  store: 'The store is a store id, or none for every store.',
} as const;

/** A scale rule's item code length: the embedded value has the other 10 - itemDigits digits before the check digit. */
export const SCALE_ITEM_DIGITS = [4, 5, 6] as const;

export const scaleBarcodeRuleSchema = z.object({
  prefixes: z
    .array(z.string({ error: SCALE_RULE_MESSAGES.prefixes }).regex(/^2\d$/, SCALE_RULE_MESSAGES.prefixes), { error: SCALE_RULE_MESSAGES.prefixes })
    .min(1, SCALE_RULE_MESSAGES.prefixes)
    .max(10, SCALE_RULE_MESSAGES.prefixes)
    .refine((p) => new Set(p).size === p.length, SCALE_RULE_MESSAGES.prefixes),
  itemDigits: z.number({ error: SCALE_RULE_MESSAGES.itemDigits }).int(SCALE_RULE_MESSAGES.itemDigits).min(4, SCALE_RULE_MESSAGES.itemDigits).max(6, SCALE_RULE_MESSAGES.itemDigits),
  embeds: z.enum(['price', 'weight'], { error: SCALE_RULE_MESSAGES.embeds }),
  /** Null or absent: the rule of every store without its own. */
  store: z
    .number({ error: SCALE_RULE_MESSAGES.store })
    .int(SCALE_RULE_MESSAGES.store)
    .positive(SCALE_RULE_MESSAGES.store)
    .nullish()
    .transform((v) => v ?? undefined),
});

export type StoredScaleRule = ScaleBarcodeRule & { store?: number };

export type ScaleRuleCheck = { ok: true; rule: StoredScaleRule } | { ok: false; violations: { path: string; message: string }[] };

/**
 * A setting value (JSON text, or the value already parsed) checked as a scale rule. On success the
 * rule comes back normalised (unknown keys and a null store dropped): what should be stored.
 * Violation paths are the rule's own (`prefixes`, `itemDigits`...; '' for the value as a whole).
 */
export function checkScaleRule(value: unknown): ScaleRuleCheck {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return { ok: false, violations: [{ path: '', message: SCALE_RULE_MESSAGES.json }] };
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: false, violations: [{ path: '', message: SCALE_RULE_MESSAGES.json }] };
  const result = scaleBarcodeRuleSchema.safeParse(parsed);
  if (result.success) {
    const { store, ...rule } = result.data;
    return { ok: true, rule: store === undefined ? rule : { ...rule, store } };
  }
  const seen = new Set<string>();
  const violations: { path: string; message: string }[] = [];
  for (const issue of result.error.issues) {
    const path = String(issue.path[0] ?? '');
    if (seen.has(path)) continue;
    seen.add(path);
    violations.push({ path, message: issue.message });
  }
  return { ok: false, violations };
}

/**
 * A sample barcode of a rule and what the decoder reads from it: the first prefix, item 12345
 * (cut or lengthened to the rule's item digits) and 625 as the embedded value (0.625 kg or 6.25 in
 * a two-digit currency), with its check digit. For the settings screen's live example.
 */
export function scaleBarcodeExample(rule: ScaleBarcodeRule): { code: string; decoded: ScaleBarcode } | null {
  const prefix = rule.prefixes[0];
  if (!prefix || !/^2\d$/.test(prefix) || !SCALE_ITEM_DIGITS.includes(rule.itemDigits as 4 | 5 | 6)) return null;
  const item = '123456'.slice(0, rule.itemDigits);
  const body = `${prefix}${item}${'625'.padStart(10 - rule.itemDigits, '0')}`;
  const code = `${body}${gs1CheckDigit(body)}`;
  const decoded = decodeScaleBarcode(code, rule);
  return decoded ? { code, decoded } : null;
}
