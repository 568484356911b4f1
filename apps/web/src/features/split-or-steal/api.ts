/** Split or Steal's HTTP calls as server state, on the kit's helper (lib/live-game-api). */
import { splitOrStealEndpoints } from '@kickback/common/http/split-or-steal';
import { liveGameApi } from '../../lib/live-game-api';

export const {
  useRecent: useRecentSplitOrSteal,
  useCreate: useCreateSplitOrSteal,
  useCancel: useCancelSplitOrSteal,
} = liveGameApi(splitOrStealEndpoints);
