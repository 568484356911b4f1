/**
 * Which language the web app speaks (docs/features/languages.md#on-the-site), in the order the
 * server answers in: the signed-in viewer's own choice, else the `kb_lang` cookie (a signed-out
 * visitor's choice), else — when the site follows the browser — the browser's languages, else the
 * site's default. Pure, so the order is tested without a browser.
 */
import { LOCALE_COOKIE, isLocale, negotiateLocale, type Locale } from '@kickback/common/i18n/locales';

export interface LocaleInputs {
  /** The signed-in viewer's choice (null: follow the site; undefined: signed out). */
  userLanguage?: Locale | null;
  /** `document.cookie`. */
  cookie: string;
  /** `navigator.languages`. */
  browserLanguages: readonly string[];
  site: { default: Locale; followBrowser: boolean };
}

export function chooseLocale({ userLanguage, cookie, browserLanguages, site }: LocaleInputs): Locale {
  if (userLanguage) return userLanguage;
  const chosen = localeCookie(cookie);
  if (chosen) return chosen;
  if (site.followBrowser) {
    const browser = negotiateLocale(browserLanguages);
    if (browser) return browser;
  }
  return site.default;
}

/** The browser's languages (none outside a browser). */
export function browserLanguages(): readonly string[] {
  return typeof navigator === 'undefined' ? [] : navigator.languages;
}

/** The language this page should speak now: `chooseLocale` over this browser's cookie and languages. */
export function localeHere(site: LocaleInputs['site'], userLanguage: Locale | null = null): Locale {
  return chooseLocale({ userLanguage, cookie: document.cookie, browserLanguages: browserLanguages(), site });
}

/** The language kept in the `kb_lang` cookie, if it names one of ours. */
export function localeCookie(cookie: string): Locale | null {
  for (const part of cookie.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name !== LOCALE_COOKIE) continue;
    const locale = decodeURIComponent(value.join('='));
    return isLocale(locale) ? locale : null;
  }
  return null;
}

/** The cookie that keeps a choice for a year, sent with every request so the server agrees. */
export function localeCookieString(locale: Locale): string {
  return `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=31536000; SameSite=Lax`;
}
