/**
 * The live bonus hunt on the shared live-state hook: the public `/BonusHunt` hub, `GetState` after
 * every (re)connect, the newest `ReceiveState` kept. `state` is null while no hunt was ever run.
 * An OBS source runs unattended: after the hook gives up, it tries again every 30 s.
 */
import type { bonusHuntHub } from '@kickback/common/hubs/hunt';
import { hubRef } from '../../lib/hub';
import { UNATTENDED_RETRY_MS, useLiveState } from '../../lib/use-live-state';

/** The overlay's bundle carries no schemas (see hubRef). */
const hub = hubRef<typeof bonusHuntHub>('/BonusHunt');

export function useHunt() {
  const live = useLiveState({
    hub,
    query: {},
    stateEvent: 'ReceiveState',
    fetchState: (connection) => connection.call('GetState'),
    retryAfterGivingUpMs: UNATTENDED_RETRY_MS,
  });
  return live;
}
