/**
 * The web app's handle on its language (docs/features/languages.md#on-the-site). The runtime
 * (i18next, react-i18next and one catalogue) loads beside the site's configuration and before the
 * app draws (`loadI18n`); what a page needs from it — `useTranslation`, the current language — is
 * here, small enough for the first page's entry.
 */
// Types only: the list and the matching travel with the runtime, not in the first page's entry.
import type { Locale } from '@kickback/common/i18n/locales';
import type { TFunction } from 'i18next';
import type * as Runtime from './runtime';

let runtime: typeof Runtime | null = null;
let module: Promise<typeof Runtime> | null = null;
let loading: Promise<typeof Runtime> | null = null;

/** The runtime's module (fetched once), before any language is loaded. */
export function loadRuntime(): Promise<typeof Runtime> {
  module ??= import('./runtime');
  return module;
}

/** Loads the runtime and `locale`'s texts (once; a later call switches to `locale`). */
export async function loadI18n(locale: Locale): Promise<void> {
  loading ??= loadRuntime().then(
    async (r) => {
      await r.start(locale);
      runtime = r;
      return r;
    },
    (err: unknown) => {
      loading = null; // a later call tries again
      throw err;
    },
  );
  await loading;
  await changeLanguage(locale);
}

/** Switches the app to `locale` once its texts are here; `<html lang>` follows. */
export async function changeLanguage(locale: Locale): Promise<void> {
  const r = runtime ?? (await loading);
  if (!r) throw new Error('changeLanguage before loadI18n');
  if (r.i18n.language !== locale) await r.i18n.changeLanguage(locale);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

/** The language the app speaks now (English until the runtime is here). */
export function currentLocale(): Locale {
  return (runtime?.i18n.language as Locale | undefined) ?? 'en';
}

/** react-i18next's `useTranslation`, from the runtime loaded before the app drew. */
export const useTranslation: typeof Runtime.useTranslation = ((...args: Parameters<typeof Runtime.useTranslation>) => {
  if (!runtime) throw new Error('useTranslation before loadI18n');
  return runtime.useTranslation(...args);
}) as typeof Runtime.useTranslation;

/** A text outside React (a toast, a document title), in the current language. */
export const t = ((...args: unknown[]) => {
  if (!runtime) throw new Error('t before loadI18n');
  return (runtime.i18n.t as unknown as (...a: unknown[]) => string)(...args);
}) as unknown as TFunction;
