import { afterEach, describe, expect, it } from 'vitest';
import i18n from '@/lib/i18n';
import { paymentTypeName } from './payment-type-name';

afterEach(async () => { await i18n.changeLanguage('en'); });

describe('payment method names (issue 19)', () => {
  it('the default kinds are translated; a name the shop chose is kept as typed', async () => {
    const cash = { name: 'Cash', type: 'cash' };
    const card = { name: 'Credit Card', type: 'credit card' };
    const credit = { name: 'Credit', type: 'credit' };
    const visa = { name: 'Visa', type: 'credit card' };
    expect([cash, card, credit, visa].map((p) => paymentTypeName(p, i18n.t))).toEqual(['Cash', 'Credit Card', 'Credit', 'Visa']);
    await i18n.changeLanguage('ar');
    expect([cash, card, credit, visa].map((p) => paymentTypeName(p, i18n.t))).toEqual(['نقدًا', 'بطاقة ائتمان', 'آجل', 'Visa']);
  });
});
