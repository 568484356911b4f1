/**
 * A battle's live state on the shared live-state hook: the `/Battle?gameid=` hub, `GetGameState`
 * after every (re)connect, the newest `BattleState` kept. Used by the page and by the OBS overlay,
 * whose bundle carries no schemas (hubRef). An unattended overlay tries again every 30 s after the
 * hook gives up.
 */
import type { battleHub } from '@kickback/common/hubs/battle';
import { hubRef } from '../../lib/hub';
import { UNATTENDED_RETRY_MS, useLiveState } from '../../lib/use-live-state';

const hub = hubRef<typeof battleHub>('/Battle');

export function useBattle(battleId: string | null, opts: { restartKey?: unknown; retryForever?: boolean } = {}) {
  const live = useLiveState({
    hub,
    query: { gameid: battleId ?? '' },
    stateEvent: 'BattleState',
    enabled: battleId !== null,
    restartKey: opts.restartKey,
    fetchState: (connection) => connection.call('GetGameState'),
    retryAfterGivingUpMs: opts.retryForever ? UNATTENDED_RETRY_MS : undefined,
  });
  return live;
}
