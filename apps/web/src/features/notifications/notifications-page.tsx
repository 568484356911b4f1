/**
 * Notifications (user dropdown; docs/features/store-limits.md#site-notifications): the signed-in
 * user's newest site notifications — a product back in stock, and whatever else a feature posts —
 * each with its link, and "Mark all read". A lazy page: nothing of it loads before it is opened.
 */
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router';
import { notificationEndpoints } from '@kickback/common/http/notifications';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';

function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export default function NotificationsPage() {
  const list = useEndpointQuery(notificationEndpoints.list);
  const markRead = useEndpointMutation(notificationEndpoints.markRead, { invalidates: [notificationEndpoints.list] });
  const data = list.data;
  return (
    <section className="container-lg py-4">
      <div className="d-flex flex-wrap align-items-end justify-content-between gap-3 mb-3">
        <h1 className="h2 mb-0">
          Notifications
          {data && data.unread > 0 && <span className="visually-hidden">, {data.unread} unread</span>}
        </h1>
        {data && data.unread > 0 && (
          <Button
            size="sm"
            variant="outline-secondary"
            disabled={markRead.isPending}
            onClick={() => markRead.mutate({ body: {} })}
          >
            Mark all read
          </Button>
        )}
      </div>
      {!data ? (
        <div className="text-center py-5">
          <Spinner animation="border" role="status" aria-label="Loading notifications" />
        </div>
      ) : data.items.length === 0 ? (
        <div className="kb-card text-center py-5 text-body-secondary">
          Nothing yet. Ask to be notified on a sold-out item in the <Link to="/store">store</Link>.
        </div>
      ) : (
        <ul className="list-unstyled kb-card p-0 mb-0" aria-label="Your notifications">
          {data.items.map((n) => (
            <li
              key={n.id}
              className={`d-flex gap-3 align-items-start px-3 py-2 border-bottom${n.read ? ' text-body-secondary' : ''}`}
              data-testid="notification"
            >
              <div className="flex-grow-1">
                {!n.read && <span className="badge text-bg-primary me-2">New</span>}
                {n.link ? <Link to={n.link}>{n.text}</Link> : n.text}
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
    </section>
  );
}
