/**
 * Typed keys: a key missing from the English catalogue, or a wrong placeholder, is a type error
 * (i18next's resources augmentation; docs/features/languages.md#for-translators).
 */
import 'i18next';
import type en from './locales/en.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
