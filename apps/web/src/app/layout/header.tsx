import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import Navbar from 'react-bootstrap/Navbar';
import Button from 'react-bootstrap/Button';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { FaSteam } from 'react-icons/fa6';
import { canModerate } from '@kickback/common/access';
import { HEADER_INLINE_ITEMS, shownMenu, type MenuFeatureId } from '@kickback/common/site-menu';
import { formatAmount } from '../../lib/format';
import { Avatar } from '../../components/ui/avatar';
import { useAuth } from '../../shared/auth/auth-context';
import { useProfileModal } from '../../shared/profile-modal-context';
import { useSite } from '../../shared/site-context';
import { useTranslation } from '../../i18n/i18n';

// The dropdowns load beside the page (docs/benchmarks.md#first-load-budget-per-page); until then
// each shows its title, not yet a button.
const menus = () => import('./header-menus');
const MoreMenu = lazy(() => menus().then((m) => ({ default: m.MoreMenu })));
const AdminMenu = lazy(() => menus().then((m) => ({ default: m.AdminMenu })));
const UserMenu = lazy(() => menus().then((m) => ({ default: m.UserMenu })));
const LanguageSwitch = lazy(() => menus().then((m) => ({ default: m.LanguageSwitch })));

function MenuTitle({ title, className = '' }: { title: ReactNode; className?: string }) {
  return (
    <div className={`nav-item dropdown ${className}`}>
      <span className="nav-link dropdown-toggle">{title}</span>
    </div>
  );
}

export function Header() {
  const { user, signIn, signOut, initialising } = useAuth();
  const { openProfile, openLinkFlow } = useProfileModal();
  const site = useSite();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const role = user?.role ?? null;
  // The phone menu is controlled so it can close once the person has signed in (or out).
  const [expanded, setExpanded] = useState(false);
  const userId = user?.openId ?? null;
  const [menuUser, setMenuUser] = useState(userId);
  if (menuUser !== userId) {
    setMenuUser(userId);
    setExpanded(false);
  }
  // …and once a link in it led to another page.
  const { pathname } = useLocation();
  const [menuPath, setMenuPath] = useState(pathname);
  if (menuPath !== pathname) {
    setMenuPath(pathname);
    setExpanded(false);
  }

  // The menu is the admin's list of the site's features (docs/features/site-and-admin-tools.md#the-menu):
  // the first few sit in the bar, the rest under More; the phone menu lists them all.
  const items = shownMenu(site.menu);
  const more = items.slice(HEADER_INLINE_ITEMS);
  const menuLink = (item: (typeof items)[number], className?: string) => (
    <Nav.Link key={item.id} as={NavLink} to={item.path} end={item.path === '/'} className={className}>
      {t(`menu.${item.id as MenuFeatureId}`)}
    </Nav.Link>
  );

  const userTitle = user ? (
    <span className="d-inline-flex align-items-center gap-2">
      <Avatar url={user.avatarUrl} size={28} />
      <span className="kb-username">{user.username}</span>
    </span>
  ) : null;

  return (
    <Navbar
      expand="xl"
      className="kb-header"
      variant="dark"
      sticky="top"
      collapseOnSelect
      expanded={expanded}
      onToggle={setExpanded}
    >
      <Container fluid="xxl">
        <Navbar.Brand as={NavLink} to="/" className="d-flex align-items-center gap-2">
          <img src={site.logoUrl} alt="" width={32} height={32} />
          <span className="fw-bold kb-brand-name">{site.siteName}</span>
        </Navbar.Brand>
        {/* Sign In stays in the header bar on a phone, not inside the menu. */}
        {!user && !initialising && (
          <Button
            variant="primary"
            className="kb-signin ms-auto me-2 me-xl-0 order-xl-last"
            onClick={() => {
              setExpanded(false);
              signIn();
            }}
          >
            <FaSteam aria-hidden className="me-2" />
            {t('shell.signIn')}
          </Button>
        )}
        <Navbar.Toggle aria-controls="kb-nav" />
        <Navbar.Collapse id="kb-nav">
          <Nav className="me-auto">
            {items.slice(0, HEADER_INLINE_ITEMS).map((item) => menuLink(item))}
            {more.map((item) => menuLink(item, 'd-xl-none'))}
            {more.length > 0 && (
              <Suspense fallback={<MenuTitle title={t('shell.more')} className="d-none d-xl-block" />}>
                <MoreMenu items={more} />
              </Suspense>
            )}
            <Nav.Link
              href="/linkkick"
              className="kb-link-cta"
              onClick={(e) => {
                e.preventDefault();
                openLinkFlow();
              }}
            >
              {t('shell.clickToLink')}
            </Nav.Link>
            {role !== null && canModerate(role) && (
              <Suspense fallback={<MenuTitle title={t('shell.admin')} />}>
                <AdminMenu role={role} />
              </Suspense>
            )}
          </Nav>
          <Nav className="align-items-xl-center gap-2">
            {/* Signed in, the user menu has the switch (the header keeps its width: header-fit journey). */}
            {!user && !initialising && (
              <Suspense fallback={<span className="kb-language-switch-space" aria-hidden />}>
                <LanguageSwitch />
              </Suspense>
            )}
            {user ? (
              <Nav.Link as={Link} to="/earn" className="kb-points-pill align-self-start align-self-xl-center">
                <span>{t('shell.pointsPill', { points: formatAmount(user.points) })}</span>
                <span className="visually-hidden"> — {t('shell.howToEarn')}</span>
              </Nav.Link>
            ) : null}
            {user ? (
              <Suspense fallback={<MenuTitle title={userTitle} />}>
                <UserMenu
                  title={userTitle}
                  role={user.role}
                  onProfile={openProfile}
                  onSignOut={() => {
                    void signOut().then(() => navigate('/'));
                  }}
                />
              </Suspense>
            ) : null}
          </Nav>
        </Navbar.Collapse>
      </Container>
    </Navbar>
  );
}
