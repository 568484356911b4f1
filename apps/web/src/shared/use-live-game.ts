/**
 * A live game's state for its page (docs/architecture.md#the-live-game-kit): the shared live-state
 * hook (lib/use-live-state) on the game's hub at `?gameid=`, connecting once it is known who is
 * signed in and restarting when that changes, with the contract's toast when the server refuses.
 */
import { toast } from '../lib/toast';
import type { EventName, HubQuery, HubSpec } from '@kickback/common/hubs/hub';
import { messages } from '@kickback/common/messages';
import { useLiveState, type LiveStateOptions } from '../lib/use-live-state';
import { useAuth } from './auth/auth-context';

export function useLiveGame<H extends HubSpec, E extends EventName<H>>(
  gameId: string,
  options: Omit<LiveStateOptions<H, E>, 'query' | 'enabled' | 'restartKey'>,
) {
  const { user, initialising } = useAuth();
  return useLiveState({
    onRefused: () => toast.error(messages.unableToConnectGame),
    ...options,
    query: { gameid: gameId } as HubQuery<H>,
    enabled: !initialising, // connect once we know who is signed in
    restartKey: user?.openId ?? null,
  });
}
