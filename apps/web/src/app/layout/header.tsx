import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import Navbar from 'react-bootstrap/Navbar';
import NavDropdown from 'react-bootstrap/NavDropdown';
import Button from 'react-bootstrap/Button';
import { NavLink, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { FaSteam } from 'react-icons/fa6';
import { messages } from '@kickback/common/messages';
import { formatPoints } from '../../lib/format';
import { Avatar } from '../../components/ui/avatar';
import { useAuth } from '../auth/auth-context';
import { useProfileModal } from '../profile-modal-context';
import { useSite } from '../site-context';
import { adminMenu, mainMenu, userMenu, type AppRoute } from '../routes';

export function Header() {
  const { user, isAuthenticated, signIn, signOut, initialising } = useAuth();
  const { openProfile, openLinkFlow } = useProfileModal();
  const site = useSite();
  const navigate = useNavigate();
  const role = user?.role ?? null;

  const onMenuClick = (route: AppRoute) => (event: React.MouseEvent) => {
    if (route.roles && !isAuthenticated) {
      event.preventDefault();
      toast.error(messages.pleaseSignInFirst);
    }
  };

  return (
    <Navbar expand="xl" className="kb-header" variant="dark" sticky="top" collapseOnSelect>
      <Container fluid="xl">
        <Navbar.Brand as={NavLink} to="/" className="d-flex align-items-center gap-2">
          <img src={site.logoUrl} alt="" width={32} height={32} />
          <span className="fw-bold">{site.siteName}</span>
        </Navbar.Brand>
        <Navbar.Toggle aria-controls="kb-nav" />
        <Navbar.Collapse id="kb-nav">
          <Nav className="me-auto">
            {mainMenu(role).map((r) => (
              <Nav.Link key={r.path} as={NavLink} to={r.path} end={r.path === '/'} onClick={onMenuClick(r)}>
                {r.name}
              </Nav.Link>
            ))}
            <Nav.Link
              href="/linkkick"
              className="kb-link-cta"
              onClick={(e) => {
                e.preventDefault();
                openLinkFlow();
              }}
            >
              CLICK TO LINK
            </Nav.Link>
            {role === 'Admin' && (
              <NavDropdown title="Admin" id="kb-admin-menu">
                {adminMenu().map((r) => (
                  <NavDropdown.Item key={r.path} as={NavLink} to={r.path}>
                    {r.name}
                  </NavDropdown.Item>
                ))}
              </NavDropdown>
            )}
          </Nav>
          <Nav className="align-items-lg-center gap-2">
            {user ? (
              <NavDropdown
                align="end"
                id="kb-user-menu"
                title={
                  <span className="d-inline-flex align-items-center gap-2">
                    <Avatar url={user.avatarUrl} size={28} />
                    <span className="kb-username">{user.username}</span>
                    <span className="kb-points-pill">{formatPoints(user.points)} pts</span>
                  </span>
                }
              >
                <NavDropdown.Item onClick={openProfile}>Profile</NavDropdown.Item>
                {userMenu(user.role).map((r) => (
                  <NavDropdown.Item key={r.path} as={NavLink} to={r.path}>
                    {r.name}
                  </NavDropdown.Item>
                ))}
                <NavDropdown.Divider />
                <NavDropdown.Item
                  onClick={() => {
                    void signOut().then(() => navigate('/'));
                  }}
                >
                  Sign out
                </NavDropdown.Item>
              </NavDropdown>
            ) : (
              !initialising && (
                <Button variant="primary" className="kb-signin" onClick={signIn}>
                  <FaSteam aria-hidden className="me-2" />
                  Sign In
                </Button>
              )
            )}
          </Nav>
        </Navbar.Collapse>
      </Container>
    </Navbar>
  );
}
