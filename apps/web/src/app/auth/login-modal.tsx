import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router';
import { useSite } from '../../shared/site-context';
import { useAuth } from '../../shared/auth/auth-context';
import { useTranslation } from '../../i18n/i18n';

/**
 * "Logging In": visible while the sign-in popup is open (docs/product.md#site-screens-and-routes,
 * docs/product.md#site-states-and-transitions). When the browser blocked the popup it stays open
 * and says so, with a same-tab sign-in that comes back here.
 */
export function LoginModal() {
  const { loading, blocked, cancelSignIn, signIn, signInHere } = useAuth();
  const site = useSite();
  const { t } = useTranslation();
  const provider = site.devSignIn ? t('login.providerDev') : 'Steam';
  return (
    <Modal show={loading} onHide={cancelSignIn} centered backdrop="static" aria-labelledby="login-modal-title">
      <Modal.Header>
        <Modal.Title id="login-modal-title">{t('login.title')}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {blocked ? (
          <Alert variant="warning" className="mb-0" role="alert">
            <Alert.Heading as="h2" className="h6">
              {t('login.allowPopups')}
            </Alert.Heading>
            <p className="mb-0">{t('login.blocked', { provider })}</p>
          </Alert>
        ) : (
          <div className="d-flex align-items-center gap-3">
            <Spinner animation="border" role="status" size="sm">
              <span className="visually-hidden">{t('login.waiting')}</span>
            </Spinner>
            <p className="mb-0">{t('login.popupOpen', { provider })}</p>
          </div>
        )}
        <p className="small text-body-secondary mt-3 mb-0">
          {t('login.agreeStart')}{' '}
          <Link to={site.termsUrl} onClick={cancelSignIn}>
            {t('footer.terms')}
          </Link>{' '}
          {t('login.agreeAnd')}{' '}
          <Link to={site.privacyUrl} onClick={cancelSignIn}>
            {t('footer.privacy')}
          </Link>
          {t('login.agreeEnd')}
        </p>
      </Modal.Body>
      <Modal.Footer>
        {blocked && (
          <>
            <Button variant="primary" onClick={signInHere}>
              {t('login.sameTab')}
            </Button>
            <Button variant="outline-light" onClick={signIn}>
              {t('login.tryAgain')}
            </Button>
          </>
        )}
        <Button variant="outline-secondary" onClick={cancelSignIn}>
          {t('common.cancel')}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
