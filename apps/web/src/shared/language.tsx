/**
 * The app's language (docs/features/languages.md#on-the-site): chosen once the site's configuration
 * is here (the `kb_lang` cookie, the browser's languages when the site follows them, the site's
 * default), then the signed-in viewer's own choice once the ping says who they are. The page waits
 * for the chosen language's texts, so it never draws in one language and then another.
 * The switch is `useLanguage` (use-language.ts), loaded with the menus.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { changeLanguage, loadI18n, loadRuntime } from '../i18n/i18n';
import { useAuth } from './auth/auth-context';
import { useSite } from './site-context';

/** Waits for the first language's texts before drawing its children. */
export function LanguageProvider({ children }: { children: ReactNode }) {
  const site = useSite();
  const [ready, setReady] = useState(false);
  useEffect(() => {
    loadRuntime()
      .then((r) => loadI18n(r.localeHere(site.language)))
      .then(
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
    void loadRuntime().then((r) => changeLanguage(r.localeHere(site.language, language ?? null)));
  }, [initialising, language, site.language]);
  return null;
}
