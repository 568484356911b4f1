/** A running broadcast: a progress bar with sent and failed so far (announced politely to screen readers). */
import Spinner from 'react-bootstrap/Spinner';
import type { BroadcastSummary } from '@kickback/common/http/discord';
import { percentDone } from './progress';

export function BroadcastProgress({ broadcast }: { broadcast: BroadcastSummary }) {
  const done = broadcast.sentCount + broadcast.failedCount;
  const pct = percentDone(broadcast);
  const share = (n: number) => (n * 100) / Math.max(1, broadcast.total);
  return (
    <div className="kb-card kb-broadcast-progress" aria-live="polite">
      <div className="d-flex align-items-center gap-2 mb-2">
        <Spinner animation="border" size="sm" role="status" aria-hidden="true" />
        <strong>{broadcast.status === 'pending' ? 'Queued…' : 'Sending…'}</strong>
        <span className="ms-auto text-body-secondary small">
          {done.toLocaleString('en-US')} of {broadcast.total.toLocaleString('en-US')}
        </span>
      </div>
      <div
        className="progress kb-progress"
        role="progressbar"
        aria-label="Broadcast progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={`${done} of ${broadcast.total} done: ${broadcast.sentCount} sent, ${broadcast.failedCount} failed`}
      >
        <div className="progress-bar kb-bar-sent" style={{ width: `${share(broadcast.sentCount)}%` }} />
        <div className="progress-bar kb-bar-failed" style={{ width: `${share(broadcast.failedCount)}%` }} />
      </div>
      <div className="d-flex gap-3 small mt-2">
        <span className="kb-sent">{broadcast.sentCount.toLocaleString('en-US')} sent</span>
        <span className="kb-failed">{broadcast.failedCount.toLocaleString('en-US')} failed</span>
        <span className="ms-auto text-body-secondary">{pct}%</span>
      </div>
      <p className="small text-body-secondary mb-0 mt-2">
        Messages go out in the background at the pace Discord allows. You can leave this page; the broadcast keeps going
        and its result stays under Recent broadcasts.
      </p>
    </div>
  );
}
