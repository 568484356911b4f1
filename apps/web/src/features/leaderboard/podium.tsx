/**
 * The top three (docs/product.md#leaderboard-screen): a podium with rank badges 1 gold, 2 silver,
 * 3 bronze; first in the centre.
 * Drawn in the order 2 · 1 · 3 on every screen size; the centre step is the tallest.
 */
import type { LeaderboardEntry, RewardUnit } from '@kickback/common/http/leaderboards';
import { Avatar } from '../../components/ui/avatar';
import { ActiveMark, ClashIdButton, RewardText, wageredText } from './entry-parts';

const medals = { 1: 'gold', 2: 'silver', 3: 'bronze' } as const;

function Place({ rank, entry, unit }: { rank: 1 | 2 | 3; entry: LeaderboardEntry | undefined; unit: RewardUnit }) {
  return (
    <li className={`kb-podium-place kb-${medals[rank]}`} data-rank={rank} aria-label={`Rank ${rank}`}>
      <div className="kb-podium-card">
        <div className="kb-podium-avatar">
          <Avatar url={entry ? entry.avatarUrl : null} size={rank === 1 ? 96 : 72} />
          <span className="kb-medal" aria-hidden>
            {rank}
          </span>
        </div>
        {entry ? (
          <>
            <div className="kb-podium-name">
              <span className="kb-name-text" title={entry.userName}>
                {entry.userName}
              </span>
              <ActiveMark active={entry.isActive} />
              <ClashIdButton entry={entry} />
            </div>
            <div className="kb-podium-label">Wagered</div>
            <div className="kb-podium-wagered">{wageredText(entry.wageredAmount)}</div>
            <div className="kb-podium-reward">
              <RewardText entry={entry} unit={unit} />
            </div>
          </>
        ) : (
          <div className="kb-podium-empty">Up for grabs</div>
        )}
      </div>
      <div className="kb-podium-step" aria-hidden>
        <span>{rank}</span>
      </div>
    </li>
  );
}

export function Podium({ entries, unit }: { entries: LeaderboardEntry[]; unit: RewardUnit }) {
  const byRank = (r: number) => entries.find((e) => e.rank === r);
  return (
    <ol className="kb-podium" aria-label="Top three">
      <Place rank={2} entry={byRank(2)} unit={unit} />
      <Place rank={1} entry={byRank(1)} unit={unit} />
      <Place rank={3} entry={byRank(3)} unit={unit} />
    </ol>
  );
}
