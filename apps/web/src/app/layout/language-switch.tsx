/**
 * The language switch in the header (docs/features/languages.md#on-the-site): each language named
 * in itself (LOCALE_NAMES); the choice is kept on the profile when signed in and in the `kb_lang`
 * cookie either way, and the page changes language in place.
 */
import { LOCALE_NAMES, LOCALES, isLocale } from '@kickback/common/i18n/locales';
import { useTranslation } from '../../i18n/i18n';
import { useLanguage } from '../../shared/language';

export function LanguageSwitch() {
  const { t } = useTranslation();
  const { locale, choose } = useLanguage();
  return (
    <select
      className="form-select form-select-sm kb-language-switch w-auto"
      aria-label={t('shell.language')}
      value={locale}
      onChange={(e) => {
        if (isLocale(e.target.value)) void choose(e.target.value).catch(() => undefined);
      }}
    >
      {LOCALES.map((l) => (
        <option key={l} value={l} lang={l}>
          {LOCALE_NAMES[l]}
        </option>
      ))}
    </select>
  );
}
