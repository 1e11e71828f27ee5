import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorText } from '@/lib/form-errors';
import { useCatalogue } from '@/features/catalogue-cache/catalogue-store';
import { startCatalogueLoad } from '@/features/catalogue-cache/hooks/use-catalogue-loader';

/**
 * The loading sequence's progress message (Products, Discounts, Taxes, Payment types, Devices,
 * Settings, then Done for 1 second), the failure with a retry, and a hidden
 * [data-testid=catalogue-ready] marker once the products are loaded; "Server busy — sales kept"
 * while the server sheds load (the sync waits, the sales stay in the outbox).
 */
export function CatalogueProgress() {
  const { t } = useTranslation('sale');
  const step = useCatalogue((s) => s.step);
  const status = useCatalogue((s) => s.status);
  const progress = useCatalogue((s) => s.progress);
  const error = useCatalogue((s) => s.error);
  const busy = useCatalogue((s) => s.busy);
  // A busy server (503 BUSY) is no failure: the till keeps its sales and asks again by itself.
  const busyNote = busy ? (
    <div className="catalogue-progress" role="status" aria-live="polite" data-testid="server-busy">
      <span>{t('loading.busy')}</span>
      {status === 'error' ? <Button size="sm" variant="secondary" onClick={() => void startCatalogueLoad()}>{t('retry', { ns: 'common' })}</Button> : null}
    </div>
  ) : null;
  if (status === 'error' && busy) return busyNote;
  if (status === 'error') {
    return (
      <div className="catalogue-progress catalogue-progress-error" role="alert">
        <span>{t('loading.failed', { list: t(`loading.steps.${step ?? 'Products'}`) })}</span>
        {error ? <span className="text-muted"> {errorText(error)}</span> : null}
        <Button size="sm" variant="secondary" onClick={() => void startCatalogueLoad()}>{t('retry', { ns: 'common' })}</Button>
      </div>
    );
  }
  // Every product is searchable and scannable from here on (the bench and the e2e tests wait for it).
  const ready = status === 'ready' ? <span hidden data-testid="catalogue-ready" /> : null;
  if (!step) return busyNote ? <>{ready}{busyNote}</> : ready;
  return (
    <>
    {ready}
    <div className="catalogue-progress" role="status" aria-live="polite" data-testid="catalogue-progress">
      {step !== 'Done' && <Spinner size="sm" decorative />}
      <span>{t(`loading.steps.${step}`)}</span>
      {step === 'Products' && progress ? (
        <span className="text-muted"> {progress.total ? `${progress.loaded} / ${progress.total}` : progress.loaded}</span>
      ) : null}
    </div>
    </>
  );
}
