/**
 * The i18n runtime (docs/features/languages.md#on-the-site): i18next with react-i18next, and each
 * language's catalogue as its own chunk, fetched only for the language shown. This module loads
 * beside the site's configuration, not in the first page's entry (docs/benchmarks.md#first-load-budget-per-page):
 * `start()` resolves once the chosen language's texts are here, before the app draws.
 */
import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { LOCALES, isLocale, type Locale } from '@kickback/common/i18n/locales';

const catalogues: Record<Locale, () => Promise<{ default: ResourceKey }>> = {
  en: () => import('./locales/en.json'),
  es: () => import('./locales/es.json'),
  'pt-BR': () => import('./locales/pt-BR.json'),
};

/** Reads a language's catalogue from its own chunk (i18next's backend interface). */
const chunkBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    if (!isLocale(language)) {
      callback(new Error(`No catalogue for ${language}`), false);
      return;
    }
    catalogues[language]().then(
      (m) => callback(null, m.default),
      (err: unknown) => callback(err as Error, false),
    );
  },
};

export const i18n = i18next.createInstance();

export async function start(locale: Locale): Promise<void> {
  await i18n
    .use(chunkBackend)
    .use(initReactI18next)
    .init({
      lng: locale,
      supportedLngs: [...LOCALES],
      // Every catalogue is complete (i18n/catalogues.test.ts): no second language is fetched as a fallback.
      fallbackLng: false,
      load: 'currentOnly',
      interpolation: { escapeValue: false }, // React escapes
      react: { useSuspense: false },
      showSupportNotice: false,
    });
}

export { useTranslation };
// The language choice travels with the runtime, not in the first page's entry.
export { localeHere } from './choose-locale';
