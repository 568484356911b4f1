/**
 * A thin line on every page (not on the OBS overlays, which have their own entry) while sign-in
 * goes through the dev identity provider: anyone can pick any account there, so nobody should
 * mistake such a site for a live one (docs/go-live.md).
 */
import { useSite } from '../../shared/site-context';
import { useTranslation } from '../../i18n/i18n';

export function DevSignInBanner() {
  const site = useSite();
  const { t } = useTranslation();
  if (!site.devSignIn) return null;
  return (
    <aside className="kb-dev-banner" aria-label={t('devBanner.label')}>
      {t('devBanner.text')}
    </aside>
  );
}
