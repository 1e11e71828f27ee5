/**
 * Payment method names in the UI language (issue 19). The kinds the shop starts with (cash, credit
 * card, credit) are shown translated while they keep their default English name; a name the shop
 * chose itself ("Visa", "JazzCash") is its own and shown as typed.
 */
import type { TFunction } from 'i18next';

const DEFAULTS: Readonly<Record<string, string>> = { cash: 'Cash', 'credit card': 'Credit Card', credit: 'Credit' };
const KEYS: Readonly<Record<string, string>> = { cash: 'cash', 'credit card': 'creditCard', credit: 'credit' };

export function paymentTypeName(type: { name?: string | null; type?: string | null } | null | undefined, t: TFunction): string {
  const name = type?.name ?? '';
  const kind = (type?.type ?? '').toLowerCase();
  if (KEYS[kind] && name.trim().toLowerCase() === DEFAULTS[kind].toLowerCase()) return t(`common:paymentTypes.${KEYS[kind]}`, { defaultValue: name });
  return name;
}

/** A payment kind as the server groups sales by it ("cash", "credit card", "credit"): translated when known, else as sent. */
export function paymentKindName(kind: string, t: TFunction): string {
  const key = KEYS[kind.toLowerCase()];
  return key ? t(`common:paymentTypes.${key}`, { defaultValue: DEFAULTS[kind.toLowerCase()] }) : kind;
}
