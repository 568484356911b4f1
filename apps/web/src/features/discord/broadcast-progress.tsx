/** A running broadcast: a progress bar with sent and failed so far (announced politely to screen readers). */
import ProgressBar from 'react-bootstrap/ProgressBar';
import Spinner from 'react-bootstrap/Spinner';
import type { BroadcastSummary } from '@kickback/common/http/discord';
import { percentDone } from './progress';

export function BroadcastProgress({ broadcast }: { broadcast: BroadcastSummary }) {
  const done = broadcast.sentCount + broadcast.failedCount;
  const pct = percentDone(broadcast);
  return (
    <div className="kb-card kb-broadcast-progress" aria-live="polite">
      <div className="d-flex align-items-center gap-2 mb-2">
        <Spinner animation="border" size="sm" role="status" aria-hidden="true" />
        <strong>{broadcast.status === 'pending' ? 'Queued…' : 'Sending…'}</strong>
        <span className="ms-auto text-body-secondary small">
          {done.toLocaleString('en-US')} of {broadcast.total.toLocaleString('en-US')}
        </span>
      </div>
      <ProgressBar aria-label="Broadcast progress" className="kb-progress">
        <ProgressBar variant="success" now={(broadcast.sentCount * 100) / Math.max(1, broadcast.total)} key="sent" />
        <ProgressBar variant="danger" now={(broadcast.failedCount * 100) / Math.max(1, broadcast.total)} key="failed" />
      </ProgressBar>
      <div className="d-flex gap-3 small mt-2">
        <span className="text-success">{broadcast.sentCount.toLocaleString('en-US')} sent</span>
        <span className="text-danger">{broadcast.failedCount.toLocaleString('en-US')} failed</span>
        <span className="ms-auto text-body-secondary">{pct}%</span>
      </div>
      <p className="small text-body-secondary mb-0 mt-2">
        Messages go out in the background at the pace Discord allows. You can leave this page; the broadcast keeps going
        and its result stays under Recent broadcasts.
      </p>
    </div>
  );
}
