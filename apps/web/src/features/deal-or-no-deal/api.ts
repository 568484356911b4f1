/** Deal or No Deal's HTTP calls as server state, on the kit's helper (lib/live-game-api). */
import { dealOrNoDealEndpoints } from '@kickback/common/http/deal-or-no-deal';
import { liveGameApi } from '../../lib/live-game-api';

export const {
  useRecent: useRecentDealOrNoDeal,
  useCreate: useCreateDealOrNoDeal,
  useCancel: useCancelDealOrNoDeal,
} = liveGameApi(dealOrNoDealEndpoints);
