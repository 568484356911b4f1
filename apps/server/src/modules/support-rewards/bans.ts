/**
 * The ban gate of support rewards and channel points. Kick's `moderation.banned` events are
 * recorded by the bans feature; until it is connected here nobody counts as banned.
 */
import type { DbOrTx } from '../../db/client';

// Connected to the recorded Kick chat bans when that feature lands (docs/features/support-rewards.md).
export function isBannedForRewards(_tx: DbOrTx, _userId: string): Promise<boolean> {
  return Promise.resolve(false);
}
