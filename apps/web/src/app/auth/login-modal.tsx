import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router';
import { useSite } from '../site-context';
import { useAuth } from './auth-context';

/** "Logging In": visible while the sign-in popup is open (spec part 1 §2, §4). */
export function LoginModal() {
  const { loading, cancelSignIn } = useAuth();
  const site = useSite();
  return (
    <Modal show={loading} onHide={cancelSignIn} centered backdrop="static" aria-labelledby="login-modal-title">
      <Modal.Header>
        <Modal.Title id="login-modal-title">Logging In</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <div className="d-flex align-items-center gap-3">
          <Spinner animation="border" role="status" size="sm">
            <span className="visually-hidden">Waiting for sign-in</span>
          </Spinner>
          <p className="mb-0">
            A pop-up with the {site.devSignIn ? 'sign-in' : 'Steam'} login page should open. Finish signing in there;
            this window updates by itself.
          </p>
        </div>
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
        <Button variant="outline-secondary" onClick={cancelSignIn}>
          Cancel
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
