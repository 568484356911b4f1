/**
 * The app's language (docs/features/languages.md#on-the-site): chosen once the site's configuration
 * is here (the `kb_lang` cookie, the browser's languages when the site follows them, the site's
 * default), then the signed-in viewer's own choice once the ping says who they are. The page waits
 * for the chosen language's texts, so it never draws in one language and then another.
 * `useLanguage().choose` is the header's switch: kept on the profile when signed in, in the cookie
 * either way (so the server's answers agree).
 */
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { Locale } from '@kickback/common/i18n/locales';
import { chooseLocale, localeCookieString } from '../i18n/choose-locale';
import { changeLanguage, loadI18n, useTranslation } from '../i18n/i18n';
import { api } from '../lib/api';
import { useAuth } from './auth/auth-context';
import { useSite } from './site-context';

function browserLanguages(): readonly string[] {
  return typeof navigator === 'undefined' ? [] : navigator.languages;
}

/** Waits for the first language's texts before drawing its children. */
export function LanguageProvider({ children }: { children: ReactNode }) {
  const site = useSite();
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const locale = chooseLocale({ cookie: document.cookie, browserLanguages: browserLanguages(), site: site.language });
    loadI18n(locale).then(
      () => setReady(true),
      // A catalogue that did not load (a dropped connection): English, which the entry can always fetch again.
      () => void loadI18n('en').finally(() => setReady(true)),
    );
    // The first choice only: later changes go through LanguageSync and the switch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  if (!ready) return <div className="kb-boot" aria-busy="true" />;
  return children;
}

/** Follows the signed-in viewer's own choice (and returns to the site's once they sign out). */
export function LanguageSync() {
  const site = useSite();
  const { user, initialising } = useAuth();
  const language = user?.language;
  useEffect(() => {
    if (initialising) return;
    void changeLanguage(
      chooseLocale({
        userLanguage: language ?? null,
        cookie: document.cookie,
        browserLanguages: browserLanguages(),
        site: site.language,
      }),
    );
  }, [initialising, language, site.language]);
  return null;
}

export function useLanguage(): { locale: Locale; choose(locale: Locale): Promise<void> } {
  const { i18n } = useTranslation();
  const { user, refreshUser } = useAuth();
  const signedIn = user !== null;
  const choose = useCallback(
    async (locale: Locale) => {
      document.cookie = localeCookieString(locale);
      if (signedIn) {
        // The endpoint's schema (and zod with it) loads with the first switch, not with the first page.
        const { i18nEndpoints } = await import('@kickback/common/http/i18n');
        await api(i18nEndpoints.setMyLanguage, { body: { language: locale } });
        await changeLanguage(locale);
        await refreshUser();
      } else {
        await changeLanguage(locale);
      }
    },
    [signedIn, refreshUser],
  );
  return { locale: i18n.language as Locale, choose };
}
