import { lazy, Suspense } from 'react';
import Container from 'react-bootstrap/Container';
import { Link } from 'react-router';
import { shownMenu, type MenuFeatureId } from '@kickback/common/site-menu';
import { useSite } from '../../shared/site-context';
import { useTranslation } from '../../i18n/i18n';

/**
 * The social icons load after the page draws: in the entry they cost every page's first load
 * (docs/benchmarks.md#first-load-budget-per-page); until then each link keeps an icon's size.
 */
const SocialIcon = lazy(() => import('./social-icon'));
const iconSpace = <span style={{ display: 'inline-block', width: '1em', height: '1em' }} aria-hidden />;

export function Footer() {
  const site = useSite();
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  return (
    <footer className="kb-footer mt-auto">
      <Container fluid="xl" className="py-4">
        <div className="row gy-4">
          <div className="col-lg-4">
            <div className="d-flex align-items-center gap-2 mb-2">
              <img src={site.logoUrl} alt="" width={28} height={28} />
              <strong>{site.siteName}</strong>
            </div>
            <p className="text-body-secondary small mb-3">{site.tagline}</p>
            <ul className="list-inline mb-0" aria-label={t('footer.socialLinks')}>
              {site.socials.map((s) => {
                return (
                  <li className="list-inline-item" key={s.url}>
                    <a
                      className="kb-social"
                      href={s.url}
                      target="_blank"
                      rel="noreferrer noopener"
                      aria-label={s.label}
                    >
                      <Suspense fallback={iconSpace}>
                        <SocialIcon icon={s.icon} />
                      </Suspense>
                    </a>
                  </li>
                );
              })}
            </ul>
          </div>
          {/* The admin's menu (docs/features/site-and-admin-tools.md#the-menu), as in the header. */}
          <nav className="col-md-5 col-lg-3" aria-label={t('footer.explore')}>
            <h2 className="kb-footer-heading">{t('footer.explore')}</h2>
            <ul className="list-unstyled small kb-footer-menu">
              {shownMenu(site.menu).map((item) => (
                <li key={item.id}>
                  <Link className="kb-tap" to={item.path}>
                    {t(`menu.${item.id as MenuFeatureId}`)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <nav className="col-6 col-md-3 col-lg-2" aria-label={t('footer.quickLinks')}>
            <h2 className="kb-footer-heading">{t('footer.quickLinks')}</h2>
            <ul className="list-unstyled small">
              {site.quickLinks.map((l) => (
                <li key={l.url}>
                  <Link className="kb-tap" to={l.url}>
                    {l.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <div className="col-6 col-md-4 col-lg-3">
            <h2 className="kb-footer-heading">{t('footer.contact')}</h2>
            <p className="small mb-0">
              <a className="kb-tap" href={`mailto:${site.contactEmail}`}>
                {site.contactEmail}
              </a>
            </p>
            <p className="small text-body-secondary mb-0">
              <Link className="kb-tap" to={site.termsUrl}>
                {t('footer.terms')}
              </Link>{' '}
              ·{' '}
              <Link className="kb-tap" to={site.privacyUrl}>
                {t('footer.privacy')}
              </Link>
            </p>
          </div>
        </div>
        <p className="small text-body-secondary border-top border-secondary-subtle pt-3 mt-4 mb-0">
          {t('footer.copyright', { year, siteName: site.siteName })}
        </p>
      </Container>
    </footer>
  );
}
