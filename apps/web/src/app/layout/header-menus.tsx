/**
 * The header's dropdown menus (More, Admin, the user's), loaded beside the page rather than before
 * it draws: the dropdown code (with its positioning library) is not needed to draw the bar
 * (docs/benchmarks.md#first-load-budget-per-page). header.tsx shows each title until it is here.
 */
import NavDropdown from 'react-bootstrap/NavDropdown';
import { NavLink } from 'react-router';
import type { Role } from '@kickback/common/http/auth';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import type { MenuFeature, MenuFeatureId } from '@kickback/common/site-menu';
import { adminMenu, userMenu } from '../routes';
import { useTranslation } from '../../i18n/i18n';
import { LOCALE_NAMES, LOCALES, isLocale } from '@kickback/common/i18n/locales';
import { useLanguage } from '../../shared/use-language';

// Opened from the user menu; its code loads on the first open (docs/features/store-limits.md#site-notifications).
const NotificationsDialog = lazy(() => import('../../features/notifications/notifications-dialog'));

export function MoreMenu({ items }: { items: readonly MenuFeature[] }) {
  const { t } = useTranslation();
  return (
    <NavDropdown title={t('shell.more')} id="kb-more-menu" className="d-none d-xl-block">
      {items.map((item) => (
        <NavDropdown.Item key={item.id} as={NavLink} to={item.path}>
          {t(`menu.${item.id as MenuFeatureId}`)}
        </NavDropdown.Item>
      ))}
    </NavDropdown>
  );
}

export function AdminMenu({ role }: { role: Role }) {
  const { t } = useTranslation();
  return (
    <NavDropdown title={t('shell.admin')} id="kb-admin-menu">
      {adminMenu(role).map((r) => (
        <NavDropdown.Item key={r.path} as={NavLink} to={r.path}>
          {r.name}
        </NavDropdown.Item>
      ))}
    </NavDropdown>
  );
}

export function UserMenu({
  title,
  role,
  onProfile,
  onSignOut,
}: {
  title: ReactNode;
  role: Role;
  onProfile(): void;
  onSignOut(): void;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const [notifications, setNotifications] = useState(false);
  return (
    <>
      <NavDropdown align="end" id="kb-user-menu" title={title}>
        <NavDropdown.Item onClick={onProfile}>{t('shell.profile')}</NavDropdown.Item>
        {userMenu(role).map((r) => (
          <NavDropdown.Item key={r.path} as={NavLink} to={r.path}>
            {r.path === '/activity'
              ? t('shell.myActivity')
              : r.path === '/rewards'
                ? t('shell.milestoneRewards')
                : r.name}
          </NavDropdown.Item>
        ))}
        <NavDropdown.Item onClick={() => setNotifications(true)}>{t('shell.notifications')}</NavDropdown.Item>
        <NavDropdown.Divider />
        {/* A label, not a heading (Bootstrap's header is role="heading" with no level), and the
            current language marked by aria-current: `active` would put aria-selected on a link. */}
        <div className="dropdown-header kb-menu-section">{t('shell.language')}</div>
        {LOCALES.map((l) => (
          <NavDropdown.Item
            key={l}
            lang={l}
            className={language.locale === l ? 'active' : undefined}
            aria-current={language.locale === l ? 'true' : undefined}
            onClick={() => void language.choose(l).catch(() => undefined)}
          >
            {LOCALE_NAMES[l]}
          </NavDropdown.Item>
        ))}
        <NavDropdown.Divider />
        <NavDropdown.Item onClick={onSignOut}>{t('shell.signOut')}</NavDropdown.Item>
      </NavDropdown>
      {notifications && (
        <Suspense fallback={null}>
          <NotificationsDialog onClose={() => setNotifications(false)} />
        </Suspense>
      )}
    </>
  );
}

/**
 * The signed-out header's language switch: each language named in itself (LOCALE_NAMES); the page
 * changes language in place (docs/features/languages.md#on-the-site).
 */
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
