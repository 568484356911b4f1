/**
 * Notifications (user menu; docs/features/store-limits.md#site-notifications): the signed-in
 * user's newest site notifications — a product back in stock, and whatever else a feature posts —
 * each with its link, "Mark read" and "Mark all read". Loaded when first opened, never before a
 * page draws (docs/benchmarks.md#first-load-budget-per-page).
 */
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router';
import { notificationEndpoints } from '@kickback/common/http/notifications';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';

function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export default function NotificationsDialog({ onClose }: { onClose(): void }) {
  const list = useEndpointQuery(notificationEndpoints.list);
  const markRead = useEndpointMutation(notificationEndpoints.markRead, { invalidates: [notificationEndpoints.list] });
  const data = list.data;
  return (
    <Modal show onHide={onClose} centered scrollable aria-labelledby="notifications-title">
      <Modal.Header closeButton>
        <Modal.Title as="h2" className="h5" id="notifications-title">
          Notifications
          {data && data.unread > 0 && <span className="visually-hidden">, {data.unread} unread</span>}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body className="p-0">
        {!data ? (
          <div className="text-center py-5">
            <Spinner animation="border" role="status" aria-label="Loading notifications" />
          </div>
        ) : data.items.length === 0 ? (
          <p className="text-center py-5 px-3 mb-0 text-body-secondary">
            Nothing yet. On a sold-out item in the store, press Notify me to hear when it is back.
          </p>
        ) : (
          <ul className="list-unstyled mb-0" aria-label="Your notifications">
            {data.items.map((n) => (
              <li
                key={n.id}
                className={`d-flex gap-3 align-items-start px-3 py-2 border-bottom${n.read ? ' text-body-secondary' : ''}`}
                data-testid="notification"
              >
                <div className="flex-grow-1">
                  {!n.read && <span className="badge text-bg-primary me-2">New</span>}
                  {n.link ? (
                    <Link to={n.link} onClick={onClose}>
                      {n.text}
                    </Link>
                  ) : (
                    n.text
                  )}
                  <div className="small text-body-secondary">{when(n.createdAt)}</div>
                </div>
                {!n.read && (
                  <Button
                    size="sm"
                    variant="link"
                    className="p-0"
                    onClick={() => markRead.mutate({ body: { ids: [n.id] } })}
                    aria-label={`Mark "${n.text}" read`}
                  >
                    Mark read
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </Modal.Body>
      <Modal.Footer>
        {data && data.unread > 0 && (
          <Button
            variant="outline-secondary"
            disabled={markRead.isPending}
            onClick={() => markRead.mutate({ body: {} })}
          >
            Mark all read
          </Button>
        )}
        <Button onClick={onClose}>Close</Button>
      </Modal.Footer>
    </Modal>
  );
}
