/**
 * The language switch (docs/features/languages.md#on-the-site): kept on the profile when signed in,
 * in the `kb_lang` cookie either way (so the server's answers agree). Loaded with the header's menus
 * and the profile, not with the first page.
 */
import { useCallback } from 'react';
import { LOCALE_COOKIE, type Locale } from '@kickback/common/i18n/locales';
import { localeCookieString, localeHere } from '../i18n/choose-locale';
import { changeLanguage, useTranslation } from '../i18n/i18n';
import { api } from '../lib/api';
import { useAuth } from './auth/auth-context';
import { useSite } from './site-context';

/**
 * The language shown, and the switch: a language, or (on the profile) null to follow the site again,
 * which forgets the cookie too.
 */
export function useLanguage(): { locale: Locale; choose(locale: Locale | null): Promise<void> } {
  const { i18n } = useTranslation();
  const site = useSite();
  const { user, refreshUser } = useAuth();
  const signedIn = user !== null;
  const choose = useCallback(
    async (locale: Locale | null) => {
      document.cookie = locale ? localeCookieString(locale) : `${LOCALE_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
      const shown = locale ?? localeHere(site.language);
      if (signedIn) {
        // The endpoint's schema (and zod with it) loads with the first switch, not with the first page.
        const { i18nEndpoints } = await import('@kickback/common/http/i18n');
        await api(i18nEndpoints.setMyLanguage, { body: { language: locale } });
        await changeLanguage(shown);
        await refreshUser();
      } else {
        await changeLanguage(shown);
      }
    },
    [signedIn, refreshUser, site.language],
  );
  return { locale: i18n.language as Locale, choose };
}
