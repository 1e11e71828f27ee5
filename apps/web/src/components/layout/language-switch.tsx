import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage, type Language } from '@/lib/i18n';

/** en / ar switch (ar turns the page right-to-left). */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation('common');
  return (
    <div className="row" role="group" aria-label={t('language.label')}>
      {LANGUAGES.map((lng: Language) => (
        <button
          key={lng}
          type="button"
          className="btn btn-ghost btn-sm"
          lang={lng}
          aria-pressed={i18n.language === lng}
          onClick={() => void setLanguage(lng)}
        >
          {t(`language.${lng}`)}
        </button>
      ))}
    </div>
  );
}
