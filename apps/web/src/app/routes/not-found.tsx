import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Any unknown path (spec 2.1). */
export function NotFoundRoute() {
  const { t } = useTranslation('common');
  return (
    <main className="fullscreen-center not-found">
      <NotFoundIllustration />
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.text')}</p>
      <Link to="/" className="btn btn-primary">{t('notFound.backHome')}</Link>
    </main>
  );
}

function NotFoundIllustration() {
  return (
    <svg viewBox="0 0 320 200" role="img" aria-hidden="true" focusable="false" xmlns="http://www.w3.org/2000/svg">
      <ellipse cx="160" cy="182" rx="120" ry="10" fill="#d0d7de" />
      <rect x="70" y="40" width="180" height="120" rx="12" fill="#ffffff" stroke="#1f6feb" strokeWidth="4" />
      <rect x="70" y="40" width="180" height="26" rx="12" fill="#1f6feb" />
      <circle cx="88" cy="53" r="5" fill="#ffffff" />
      <circle cx="104" cy="53" r="5" fill="#ffffff" />
      <circle cx="120" cy="53" r="5" fill="#ffffff" />
      <circle cx="130" cy="105" r="16" fill="none" stroke="#5f6b7a" strokeWidth="5" />
      <line x1="142" y1="117" x2="160" y2="135" stroke="#5f6b7a" strokeWidth="6" strokeLinecap="round" />
      <path d="M190 95 q12 -14 24 0 M190 120 h28" fill="none" stroke="#cf222e" strokeWidth="5" strokeLinecap="round" />
    </svg>
  );
}
