/**
 * The stream's live state as Kick's last `livestream.status.updated` said it (chat-activity points
 * are earned only while live): on the Chat Simulator page and the Predictions page.
 */
import Badge from 'react-bootstrap/Badge';
import type { ChatLiveState } from '@kickback/common/http/chat';

function time(iso: string): string {
  return new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function StreamStateBadge({ live }: { live: ChatLiveState }) {
  const label = live.isLive === null ? 'not known' : live.isLive ? 'live' : 'offline';
  return (
    <span className="small" data-testid="stream-state">
      Stream:{' '}
      <Badge bg={live.isLive ? 'danger' : 'secondary'} aria-label={`Stream ${label}`}>
        {live.isLive === null ? 'Not known' : live.isLive ? 'Live' : 'Offline'}
      </Badge>
      {live.changedAt && <span className="text-body-secondary ms-1">since {time(live.changedAt)}</span>}
    </span>
  );
}
