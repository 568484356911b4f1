/**
 * The slot call queue on the shared live-state hook: the public `/SlotCalls` hub, `GetState` after
 * every (re)connect, the newest `ReceiveState` kept. An OBS source runs unattended: after the hook
 * gives up, it tries again every 30 s.
 */
import { useEffect } from 'react';
import type { slotCallsHub } from '@kickback/common/hubs/slot-calls';
import { hubRef } from '../../lib/hub';
import { useLiveState } from '../../lib/use-live-state';

const RETRY_AFTER_GIVING_UP_MS = 30_000;

/** The overlay's bundle carries no schemas (see hubRef). */
const hub = hubRef<typeof slotCallsHub>('/SlotCalls');

export function useSlotCalls() {
  const live = useLiveState({
    hub,
    query: {},
    stateEvent: 'ReceiveState',
    fetchState: (connection) => connection.call('GetState'),
  });
  const { view, retry } = live;
  useEffect(() => {
    if (view !== 'failed' && view !== 'lost') return;
    const id = setTimeout(retry, RETRY_AFTER_GIVING_UP_MS);
    return () => clearTimeout(id);
  }, [view, retry]);
  return live;
}
