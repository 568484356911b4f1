/** The latest Split or Steal games on the admin create page, so a host can get back to one. */
import { statusText } from '@kickback/common/games/split-or-steal';
import { RecentGames as RecentLiveGames } from '../../components/live/recent-games';
import { formatAmount } from '../../lib/format';
import { useRecentSplitOrSteal } from './api';

export function RecentGames() {
  return (
    <RecentLiveGames
      query={useRecentSplitOrSteal()}
      id="sos-recent-title"
      title="Recent games"
      players={['Players', (g) => `${g.player1 ?? 'Open seat'} vs ${g.player2 ?? 'Open seat'}`]}
      amount={['Reward', (g) => formatAmount(g.reward)]}
      status={(g) => statusText(g.status)}
      href={(id) => `/game/splitorsteal/${id}`}
    />
  );
}
