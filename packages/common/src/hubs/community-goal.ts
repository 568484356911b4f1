/**
 * The community goal hub `/CommunityGoal` (docs/features/community-goal.md): public and read-only.
 * The board, the home page and the OBS overlay `/overlay/goal` follow `ReceiveState`, sent after
 * the poller's write that moved a goal committed, and after an admin's change.
 */
import { z } from 'zod';
import { communityGoalsState } from '../http/community-goals';
import { call, defineHub, noPayload } from './hub';

export const communityGoalHub = defineHub({
  namespace: '/CommunityGoal',
  query: z.object({}),
  calls: { GetState: call(noPayload, communityGoalsState, 'visitor') },
  events: { ReceiveState: communityGoalsState },
});
export type CommunityGoalHub = typeof communityGoalHub;
