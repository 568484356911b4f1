/** The last broadcasts: when, by whom, how far they got; a finished one opens its result. */
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import type { BroadcastStatus, BroadcastSummary } from '@kickback/common/http/discord';
import { percentDone } from './progress';

const statusBadge: Record<BroadcastStatus, { bg: string; text: string }> = {
  pending: { bg: 'secondary', text: 'Queued' },
  running: { bg: 'info', text: 'Sending' },
  completed: { bg: 'success', text: 'Sent' },
  failed: { bg: 'danger', text: 'Stopped' },
};

export function RecentBroadcasts({
  items,
  onOpen,
}: {
  items: readonly BroadcastSummary[] | null;
  onOpen(id: string): void;
}) {
  return (
    <section className="kb-card" aria-labelledby="kb-recent-broadcasts">
      <h2 id="kb-recent-broadcasts" className="h6 mb-3">
        Recent broadcasts
      </h2>
      {items === null ? (
        <p className="text-body-secondary small mb-0">Loading…</p>
      ) : items.length === 0 ? (
        <p className="text-body-secondary small mb-0">No messages sent yet.</p>
      ) : (
        <ul className="list-unstyled mb-0 kb-broadcast-list">
          {items.map((b) => {
            const badge = statusBadge[b.status];
            const finished = b.status === 'completed' || b.status === 'failed';
            return (
              <li key={b.id}>
                <div className="d-flex align-items-center gap-2">
                  <Badge bg={badge.bg}>{badge.text}</Badge>
                  <small className="text-body-secondary">
                    {new Date(b.createdAt).toLocaleString()} · {b.createdBy}
                  </small>
                </div>
                <p className="kb-broadcast-text my-1">{b.message}</p>
                <div className="d-flex align-items-center gap-2 small">
                  <span className="kb-sent">{b.sentCount.toLocaleString('en-US')} sent</span>
                  <span className={b.failedCount > 0 ? 'kb-failed' : 'text-body-secondary'}>
                    {b.failedCount.toLocaleString('en-US')} failed
                  </span>
                  {!finished && <span className="text-body-secondary">{percentDone(b)}%</span>}
                  {finished && (
                    <Button
                      variant="link"
                      size="sm"
                      className="ms-auto p-0"
                      onClick={() => onOpen(b.id)}
                      aria-label={`View result of the broadcast of ${new Date(b.createdAt).toLocaleString()}`}
                    >
                      View result
                    </Button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
