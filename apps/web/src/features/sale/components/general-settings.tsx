import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { useCatalogue } from '@/features/catalogue-cache/catalogue-store';
import { refreshBrowserCache } from '@/features/catalogue-cache/hooks/use-catalogue-loader';
import { setPreferences, usePreferences } from '@/features/sale/preferences-store';

/**
 * Settings > General (spec 2.5): Refresh Browser Cache; Enable Touch support (experimental);
 * Show customer input; Require customer name (only while the input is shown); default tax,
 * discount and payment type, each clearable; this till's receipt printer (none: the browser prints). Everything is kept in 'pos-default-data'.
 */
export function GeneralSettings() {
  const { t } = useTranslation('sale');
  const prefs = usePreferences((p) => p);
  const taxes = useCatalogue((s) => s.catalogue.taxes);
  const discounts = useCatalogue((s) => s.catalogue.discounts);
  const paymentTypes = useCatalogue((s) => s.catalogue.paymentTypes);
  const devices = useCatalogue((s) => s.catalogue.devices);
  const [refreshing, setRefreshing] = useState(false);

  return (
    <div className="stack general-settings">
      <div>
        <Button
          variant="secondary"
          loading={refreshing}
          onClick={() => {
            setRefreshing(true);
            void refreshBrowserCache();
          }}
        >
          {t('settings.refreshCache')}
        </Button>
      </div>
      <Switch checked={prefs.enableTouch} onChange={(v) => setPreferences({ enableTouch: v })} label={t('settings.enableTouch')} />
      <Switch checked={prefs.customerBox} onChange={(v) => setPreferences({ customerBox: v })} label={t('settings.showCustomerInput')} />
      {prefs.customerBox && (
        <Switch checked={prefs.requireCustomerBox} onChange={(v) => setPreferences({ requireCustomerBox: v })} label={t('settings.requireCustomerName')} />
      )}
      <Select
        label={t('settings.defaultTax')}
        placeholder={t('settings.none')}
        value={prefs.defaultTax ? String(prefs.defaultTax.id) : ''}
        options={taxes.map((x) => ({ value: String(x.id), label: `${x.name} ${x.rate}%` }))}
        onChange={(e) => setPreferences({ defaultTax: taxes.find((x) => String(x.id) === e.target.value) ?? null })}
      />
      <Select
        label={t('settings.defaultDiscount')}
        placeholder={t('settings.none')}
        value={prefs.defaultDiscount ? String(prefs.defaultDiscount.id) : ''}
        options={discounts.filter((d) => d.scope !== 'open').map((x) => ({ value: String(x.id), label: x.name }))}
        onChange={(e) => setPreferences({ defaultDiscount: discounts.find((x) => String(x.id) === e.target.value) ?? null })}
      />
      <Select
        label={t('settings.defaultPaymentType')}
        placeholder={t('settings.none')}
        value={prefs.defaultPaymentType ? String(prefs.defaultPaymentType.id) : ''}
        options={paymentTypes.map((x) => ({ value: String(x.id), label: x.name }))}
        onChange={(e) => setPreferences({ defaultPaymentType: paymentTypes.find((x) => String(x.id) === e.target.value) ?? null })}
      />
      <Select
        label={t('settings.receiptPrinter')}
        placeholder={t('settings.browserPrint')}
        value={prefs.receiptPrinter ? String(prefs.receiptPrinter.id) : ''}
        options={devices.map((x) => ({ value: String(x.id), label: x.ipAddress ? `${x.name} (${x.ipAddress}:${x.port})` : x.name }))}
        onChange={(e) => setPreferences({ receiptPrinter: devices.find((x) => String(x.id) === e.target.value) ?? null })}
      />
    </div>
  );
}
