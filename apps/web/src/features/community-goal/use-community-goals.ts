/**
 * The community goals on the shared live-state hook: the public `/CommunityGoal` hub, `GetState`
 * after every (re)connect, the newest `ReceiveState` kept (docs/features/community-goal.md). An
 * OBS source runs unattended: after the hook gives up, it tries again every 30 s.
 */
import type { communityGoalHub } from '@kickback/common/hubs/community-goal';
import { hubRef } from '../../lib/hub';
import { UNATTENDED_RETRY_MS, useLiveState } from '../../lib/use-live-state';

/** The overlay's bundle carries no schemas (see hubRef). */
const hub = hubRef<typeof communityGoalHub>('/CommunityGoal');

export function useCommunityGoals() {
  return useLiveState({
    hub,
    query: {},
    stateEvent: 'ReceiveState',
    fetchState: (connection) => connection.call('GetState'),
    retryAfterGivingUpMs: UNATTENDED_RETRY_MS,
  });
}
