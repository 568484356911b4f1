/**
 * The live bonus hunt on the shared live-state hook: the public `/BonusHunt` hub, `GetState` after
 * every (re)connect, the newest `ReceiveState` kept. `state` is null while no hunt was ever run.
 * An OBS source runs unattended: after the hook gives up, it tries again every 30 s.
 */
import { useEffect } from 'react';
import { bonusHuntHub } from '@kickback/common/hubs/hunt';
import { useLiveState } from '../../lib/use-live-state';

const RETRY_AFTER_GIVING_UP_MS = 30_000;

export function useHunt() {
  const live = useLiveState({
    hub: bonusHuntHub,
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
