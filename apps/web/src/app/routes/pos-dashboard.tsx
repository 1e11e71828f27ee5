import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** /pos/dashboard: declared by spec 2.1; lazy chunk (back-office style screens load on demand). */
export function PosDashboardRoute() {
  const { t } = useTranslation('common');
  return (
    <main className="container">
      <h1>{t('dashboard')}</h1>
      <Link to="/pos">{t('back')}</Link>
    </main>
  );
}

export default PosDashboardRoute;
