/**
 * The viewer's stream streak on the profile (docs/features/stream-streaks.md#the-streak): streams
 * in a row they chatted during, a badge from 2 up, the best streak and the next bonus to reach.
 */
import { FaFire } from 'react-icons/fa6';
import { streakEndpoints } from '@kickback/common/http/stream-streaks';
import { formatAmount } from '../../lib/format';
import { useEndpointQuery } from '../../lib/query';

const streams = (n: number) => `${n} ${n === 1 ? 'stream' : 'streams'}`;

export function StreakBadge({ kickLinked }: { kickLinked: boolean }) {
  const { data } = useEndpointQuery(streakEndpoints.mine, {}, { staleTime: 0 });
  if (!kickLinked) {
    return <p className="text-body-secondary mb-0">Link Kick and chat during streams in a row to build a streak.</p>;
  }
  if (!data) return <p className="text-body-secondary mb-0">…</p>;
  return (
    <div data-testid="stream-streak">
      <p className="mb-1 d-flex align-items-center gap-2 flex-wrap">
        {data.current >= 2 && (
          <span className="badge rounded-pill text-bg-warning" data-testid="streak-badge">
            <FaFire aria-hidden /> {data.current}-stream streak
          </span>
        )}
        <span>
          Current streak: <strong data-testid="streak-current">{streams(data.current)}</strong> · best{' '}
          {streams(data.best)}
        </span>
      </p>
      {data.current === 0 && data.lost > 0 && (
        <p className="text-body-secondary mb-1">
          Your streak of {streams(data.lost)} ended: a stream went by without you.
        </p>
      )}
      <p className="text-body-secondary mb-0">
        {data.nextBonus
          ? `Chat during ${streams(data.nextBonus.length)} in a row for a bonus of ${formatAmount(data.nextBonus.points)} points.`
          : 'Chat during every stream to keep your streak going.'}
      </p>
    </div>
  );
}
