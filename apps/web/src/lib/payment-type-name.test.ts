import { afterEach, describe, expect, it } from 'vitest';
import i18n from '@/lib/i18n';
import { paymentKindName, paymentTypeName } from './payment-type-name';

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

  it('the kinds sales are grouped by (closing rows, the payment chart legend) are words of the UI language (issue 23.6)', async () => {
    const kinds = ['cash', 'credit card', 'credit', 'voucher'];
    expect(kinds.map((k) => paymentKindName(k, i18n.t))).toEqual(['Cash', 'Credit Card', 'Credit', 'voucher']);
    await i18n.changeLanguage('ar');
    expect(kinds.map((k) => paymentKindName(k, i18n.t))).toEqual(['نقدًا', 'بطاقة ائتمان', 'آجل', 'voucher']);
    expect(i18n.t('backoffice:closing.saleOf', { key: paymentKindName('cash', i18n.t) })).toBe('مبيعات نقدًا');
  });
});
