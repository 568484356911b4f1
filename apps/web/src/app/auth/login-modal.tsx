import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router';
import { messages } from '@kickback/common/messages';
import { useSite } from '../../shared/site-context';
import { useAuth } from '../../shared/auth/auth-context';

/**
 * "Logging In": visible while the sign-in popup is open (docs/product.md#site-screens-and-routes,
 * docs/product.md#site-states-and-transitions). When the browser blocked the popup it stays open
 * and says so, with a same-tab sign-in that comes back here.
 */
export function LoginModal() {
  const { loading, blocked, cancelSignIn, signIn, signInHere } = useAuth();
  const site = useSite();
  const provider = site.devSignIn ? 'sign-in' : 'Steam';
  return (
    <Modal show={loading} onHide={cancelSignIn} centered backdrop="static" aria-labelledby="login-modal-title">
      <Modal.Header>
        <Modal.Title id="login-modal-title">Logging In</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {blocked ? (
          <Alert variant="warning" className="mb-0" role="alert">
            <Alert.Heading as="h2" className="h6">
              {messages.allowPopups}
            </Alert.Heading>
            <p className="mb-0">
              Your browser blocked the {provider} window. Allow pop-ups for this site and try again, or sign in in this
              tab: you come back to this page afterwards.
            </p>
          </Alert>
        ) : (
          <div className="d-flex align-items-center gap-3">
            <Spinner animation="border" role="status" size="sm">
              <span className="visually-hidden">Waiting for sign-in</span>
            </Spinner>
            <p className="mb-0">
              A pop-up with the {provider} login page should open. Finish signing in there; this window updates by
              itself.
            </p>
          </div>
        )}
        <p className="small text-body-secondary mt-3 mb-0">
          By signing in you agree to our{' '}
          <Link to={site.termsUrl} onClick={cancelSignIn}>
            Terms of Service
          </Link>{' '}
          and{' '}
          <Link to={site.privacyUrl} onClick={cancelSignIn}>
            Privacy Policy
          </Link>
          .
        </p>
      </Modal.Body>
      <Modal.Footer>
        {blocked && (
          <>
            <Button variant="primary" onClick={signInHere}>
              Sign in in this tab
            </Button>
            <Button variant="outline-light" onClick={signIn}>
              Try the pop-up again
            </Button>
          </>
        )}
        <Button variant="outline-secondary" onClick={cancelSignIn}>
          Cancel
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
