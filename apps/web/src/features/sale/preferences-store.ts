/**
 * The cashier's preferences, persisted in localStorage 'pos-default-data' (spec 3
 * "Persisted preferences").
 */
import type { Device, Discount, PaymentType, Tax } from '@/features/catalogue-cache/types';
import { createStore, useStore } from '@/features/catalogue-cache/create-store';

export type PosMode = 'pos' | 'order' | 'payment';

export interface Preferences {
  defaultTax: Tax | null;
  defaultDiscount: Discount | null;
  defaultPaymentType: PaymentType | null;
  /** This till's network receipt printer; none: the browser's print dialog. */
  receiptPrinter: Device | null;
  enableShortcuts: boolean;
  displayShortcuts: boolean;
  enableTouch: boolean;
  /** The product grid on the till: shown, hidden, or null to follow touch mode (issue 23.2). */
  productGrid: boolean | null;
  defaultMode: PosMode;
  searchBox: boolean;
  customerBox: boolean;
  requireCustomerBox: boolean;
}

export const DEFAULT_PREFERENCES: Preferences = {
  defaultTax: null,
  defaultDiscount: null,
  defaultPaymentType: null,
  receiptPrinter: null,
  enableShortcuts: true,
  displayShortcuts: false,
  enableTouch: false,
  productGrid: null,
  defaultMode: 'pos',
  searchBox: true,
  customerBox: true,
  requireCustomerBox: false,
};

export const PREFERENCES_STORAGE_KEY = 'pos-default-data';

export const preferencesStore = createStore<Preferences>(DEFAULT_PREFERENCES, {
  key: PREFERENCES_STORAGE_KEY,
  revive: (stored, defaults) => {
    const p = { ...defaults, ...(stored && typeof stored === 'object' ? (stored as Partial<Preferences>) : {}) };
    if (!['pos', 'order', 'payment'].includes(p.defaultMode)) p.defaultMode = 'pos';
    if (!p.customerBox) p.requireCustomerBox = false;
    if (typeof p.productGrid !== 'boolean') p.productGrid = null;
    return p;
  },
});

export function usePreferences<S>(selector: (p: Preferences) => S): S {
  return useStore(preferencesStore, selector);
}

/** Sets preferences; hiding the customer box also drops the requirement (spec 4 "Settings"). */
export function setPreferences(patch: Partial<Preferences>): void {
  preferencesStore.set((p) => {
    const next = { ...p, ...patch };
    if (!next.customerBox) next.requireCustomerBox = false;
    return next;
  });
}
