import i18n, { type BackendModule } from 'i18next';
import { setDisplayLocale } from '@pos/domain/format';
import { initReactI18next } from 'react-i18next';
import { apiFetch } from './api-client';
import { readToken } from './cookies';
import { getSession, subscribeSession } from './session';

export const LANGUAGES = ['en', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LOCALE_STORAGE_KEY = 'locale';
const RTL: ReadonlySet<string> = new Set(['ar']);

/*
 * Namespaces are files: src/locales/<lang>/<namespace>.json. Adding a file registers it (Vite glob);
 * a feature reads its own with useTranslation('<namespace>'). Keys missing in a namespace fall back
 * to 'common', and a missing Arabic text falls back to English.
 *
 * English (the fallback) ships in the entry; other languages are separate chunks loaded by the
 * backend below when chosen (the service worker precaches them for the offline till), so a
 * till in English does not download Arabic (issue 24, the JavaScript line).
 */
// The till's own namespaces (CORE_NAMESPACES) are in the entry in English; the back office's
// (backoffice, admin, backup, setup …) are chunks of their own in every language, loaded when a
// screen asks for them: those screens are lazy and wait for their texts inside their Suspense
// boundary (useSuspense), so the sign-in page does not download them (issue 20/24).
export const CORE_NAMESPACES = ['common', 'auth', 'sale', 'outbox'] as const;
const files = import.meta.glob<Record<string, unknown>>('../locales/en/{common,auth,sale,outbox}.json', { eager: true, import: 'default' });
const lazyFiles = import.meta.glob<Record<string, unknown>>(['../locales/*/*.json', '!../locales/en/{common,auth,sale,outbox}.json'], { import: 'default' });
/** Every namespace there is (the file names). */
export const ALL_NAMESPACES = [...new Set(Object.keys(lazyFiles).concat(Object.keys(files)).map((f) => /([^/]+)\.json$/.exec(f)![1]))];
const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [file, content] of Object.entries(files)) {
  const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(file);
  if (!match) continue;
  const [, lang, ns] = match;
  (resources[lang] ??= {})[ns] = content;
}

const lazyLanguages: BackendModule = {
  type: 'backend',
  init() {},
  read(lng, ns, callback) {
    const load = lazyFiles[`../locales/${lng}/${ns}.json`];
    if (!load) return callback(null, {});
    load().then((data) => callback(null, data), (error: Error) => callback(error, null));
  },
};

export function storedLanguage(): Language {
  try {
    const saved = localStorage.getItem(LOCALE_STORAGE_KEY);
    return (LANGUAGES as readonly string[]).includes(saved ?? '') ? (saved as Language) : 'en';
  } catch {
    return 'en';
  }
}

export const isRtl = (lng: string): boolean => RTL.has(lng);

function applyDocumentLanguage(lng: string) {
  // Amounts and dates on screen follow the UI language (spec 9, per locale).
  setDisplayLocale(lng);
  if (typeof document === 'undefined') return;
  document.documentElement.lang = lng;
  document.documentElement.dir = isRtl(lng) ? 'rtl' : 'ltr';
}

i18n.on('languageChanged', applyDocumentLanguage);

/** Resolves once the chosen language's texts are loaded (at once for English): render after it. */
export const i18nReady: Promise<unknown> = i18n.use(lazyLanguages).use(initReactI18next).init({
  resources,
  partialBundledLanguages: true,
  lng: storedLanguage(),
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  ns: [...CORE_NAMESPACES],
  defaultNS: 'common',
  fallbackNS: 'common',
  interpolation: { escapeValue: false }, // React escapes
  initAsync: false, // English is bundled: ready before the first render; others await i18nReady
  // A screen whose namespace is not loaded yet waits in its Suspense boundary (lazy screens only:
  // the till's own namespaces are always there).
  react: { useSuspense: true },
  showSupportNotice: false,
});
applyDocumentLanguage(i18n.language);

/**
 * Switch language: stored in localStorage 'locale', `dir`/`lang` set on <html>, and, when someone is
 * signed in, remembered on the server (POST /api/locale {locale}; ref. client 1.3). The server call
 * is best effort: its answer is ignored and a failure never blocks the switch (offline till).
 */
export async function setLanguage(lng: Language): Promise<void> {
  try {
    localStorage.setItem(LOCALE_STORAGE_KEY, lng);
  } catch {
    // private mode: the choice lasts for this page only
  }
  if (readToken()) void apiFetch('/locale', { method: 'POST', body: { locale: lng } }).catch(() => undefined);
  else rememberDoorChoice(lng);
  await i18n.changeLanguage(lng);
}

/** A language picked on the login page (signed out): the next user to sign in here gets it. */
const DOOR_KEY = 'locale-chosen-signed-out';
function rememberDoorChoice(lng: Language): void {
  try {
    sessionStorage.setItem(DOOR_KEY, lng);
  } catch {
    // private mode
  }
}
function takeDoorChoice(): Language | null {
  try {
    const lng = sessionStorage.getItem(DOOR_KEY);
    sessionStorage.removeItem(DOOR_KEY);
    return (LANGUAGES as readonly string[]).includes(lng ?? '') ? (lng as Language) : null;
  } catch {
    return null;
  }
}

/**
 * A user's own language (issue 23): the server keeps the last choice per user (POST /api/locale,
 * user_account.locale) and /auth/info sends it back, so it survives a sign-out and follows the
 * user to the next sign-in (on any device). Applied when a different user is signed in (login or
 * app start); a user with no choice yet keeps this device's language.
 */
export function applyUserLanguage(locale: string | null | undefined): void {
  if (!locale || !(LANGUAGES as readonly string[]).includes(locale) || locale === i18n.language) return;
  try {
    localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // private mode
  }
  void i18n.changeLanguage(locale);
}

let languageOf: number | null = null;
subscribeSession(() => {
  const user = getSession().user;
  if (!user) {
    languageOf = null;
    return;
  }
  if (user.id === languageOf) return;
  languageOf = user.id;
  // A language picked on the login page just before signing in is the user's choice: it stays and
  // becomes their own; otherwise the language they chose last time, anywhere, comes back.
  const door = takeDoorChoice();
  if (door) {
    void apiFetch('/locale', { method: 'POST', body: { locale: door } }).catch(() => undefined);
    if (door !== i18n.language) void i18n.changeLanguage(door);
  } else applyUserLanguage(user.locale);
});

/** The language to format numbers and dates with ('en' | 'ar'). */
export const currentLanguage = (): Language => ((LANGUAGES as readonly string[]).includes(i18n.resolvedLanguage ?? '') ? (i18n.resolvedLanguage as Language) : 'en');

export default i18n;
