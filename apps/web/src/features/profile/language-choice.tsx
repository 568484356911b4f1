/**
 * The profile's language (docs/features/languages.md#on-the-site): one of the languages, each named
 * in itself, or "the site's language" (null), kept on the account.
 */
import Form from 'react-bootstrap/Form';
import { LOCALE_NAMES, LOCALES, isLocale } from '@kickback/common/i18n/locales';
import type { AuthUser } from '@kickback/common/http/auth';
import { useTranslation } from '../../i18n/i18n';
import { useLanguage } from '../../shared/use-language';

const FOLLOW_SITE = 'site';

export function LanguageChoice({ user }: { user: AuthUser }) {
  const { t } = useTranslation();
  const { choose } = useLanguage();
  return (
    <Form.Group controlId="kb-profile-language">
      <Form.Select
        aria-label={t('profile.language')}
        className="w-auto"
        value={user.language ?? FOLLOW_SITE}
        onChange={(e) => {
          const value = e.target.value;
          void choose(isLocale(value) ? value : null).catch(() => undefined);
        }}
      >
        <option value={FOLLOW_SITE}>{t('profile.followSite')}</option>
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LOCALE_NAMES[l]}
          </option>
        ))}
      </Form.Select>
      <Form.Text>{t('profile.languageHelp')}</Form.Text>
    </Form.Group>
  );
}
