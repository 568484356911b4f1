/**
 * The slot call queue on the shared live-state hook: the public `/SlotCalls` hub, `GetState` after
 * every (re)connect, the newest `ReceiveState` kept. An OBS source runs unattended: after the hook
 * gives up, it tries again every 30 s.
 */
import type { slotCallsHub } from '@kickback/common/hubs/slot-calls';
import { hubRef } from '../../lib/hub';
import { UNATTENDED_RETRY_MS, useLiveState } from '../../lib/use-live-state';

/** The overlay's bundle carries no schemas (see hubRef). */
const hub = hubRef<typeof slotCallsHub>('/SlotCalls');

export function useSlotCalls() {
  const live = useLiveState({
    hub,
    query: {},
    stateEvent: 'ReceiveState',
    fetchState: (connection) => connection.call('GetState'),
    retryAfterGivingUpMs: UNATTENDED_RETRY_MS,
  });
  return live;
}
