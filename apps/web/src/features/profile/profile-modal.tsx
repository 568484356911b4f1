import Modal from 'react-bootstrap/Modal';
import Button from 'react-bootstrap/Button';
import { useAuth } from '../../app/auth/auth-context';
import { Avatar } from '../../components/ui/avatar';
import { formatPoints } from '../../lib/format';
import { useProfileModal } from '../../app/profile-modal-context';

/** Profile Settings: who you are, your balance and your linked accounts. */
export function ProfileModal() {
  const { show, close } = useProfileModal();
  const { user } = useAuth();
  return (
    <Modal show={show && user !== null} onHide={close} centered aria-labelledby="profile-modal-title">
      <Modal.Header closeButton>
        <Modal.Title id="profile-modal-title">Profile Settings</Modal.Title>
      </Modal.Header>
      {user && (
        <Modal.Body>
          <div className="d-flex align-items-center gap-3 mb-3">
            <Avatar url={user.avatarUrl} size={64} />
            <div>
              <div className="fs-5 fw-semibold">{user.username}</div>
              <div className="text-body-secondary">{formatPoints(user.points)} points</div>
            </div>
          </div>
        </Modal.Body>
      )}
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={close}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
