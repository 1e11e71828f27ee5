import { useTranslation } from 'react-i18next';

export interface SpinnerProps {
  size?: 'sm' | 'md' | 'lg';
  /** Accessible text; defaults to "Loading…". */
  label?: string;
  /** Inside a busy button: hidden from assistive technology. */
  decorative?: boolean;
}

export function Spinner({ size = 'md', label, decorative = false }: SpinnerProps) {
  const { t } = useTranslation('common');
  if (decorative) return <span className={`spinner spinner-${size}`} aria-hidden="true" />;
  return (
    <span role="status" className="spinner-wrap">
      <span className={`spinner spinner-${size}`} aria-hidden="true" />
      <span className="visually-hidden">{label ?? t('loading')}</span>
    </span>
  );
}

/** Centered spinner that fills the screen (app start, lazy routes). */
export function FullScreenSpinner() {
  return (
    <div className="fullscreen-center">
      <Spinner size="lg" />
    </div>
  );
}
