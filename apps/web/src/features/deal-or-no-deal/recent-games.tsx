/** The latest Deal or No Deal games for admins (status, player, prize, link), beside Split or Steal's. */
import { statusText } from '@kickback/common/games/deal-or-no-deal';
import { RecentGames } from '../../components/live/recent-games';
import { formatPrize } from '../../lib/format';
import { useRecentDealOrNoDeal } from './api';

export function RecentDealOrNoDealGames() {
  return (
    <RecentGames
      query={useRecentDealOrNoDeal()}
      id="dond-recent-title"
      title="Recent Deal or No Deal games"
      players={['Player', (g) => g.player ?? 'Deleted user']}
      amount={['Prize', (g) => formatPrize(g.prize, 'USD')]}
      status={(g) =>
        g.status === 3
          ? 'Opening boxes'
          : statusText({ status: g.status, remainingBoxCountToOffer: 0 }, g.player ?? 'the player')
      }
      href={(id) => `/game/dealornodeal/${id}`}
    />
  );
}
