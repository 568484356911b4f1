/**
 * The one hook for a live game's state (docs/architecture.md#the-game-engine), used by every live
 * page: it opens the hub connection (again when `restartKey` changes, e.g. the signed-in user),
 * resyncs with the feature's state call after every (re)connect, keeps the newest state (an older
 * version is dropped), clears the view when the connection closes, and keeps the server's clock
 * offset so countdowns run on the server's time. What is specific to a game (sounds on a
 * transition, a player's own secrets, chat, toasts) comes in through the callbacks.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { EventName, EventPayload, HubQuery, HubSpec } from '@kickback/common/hubs/hub';
import type { LiveStateView } from '@kickback/common/hubs/live-state';
import { HubConnection, type HubStatus } from './hub';

/** What the page shows: the game, or why not. */
export type LiveView = 'connecting' | 'live' | 'private' | 'not-found' | 'lost' | 'failed';

export interface LiveStateOptions<H extends HubSpec, E extends EventName<H>> {
  hub: H;
  query: HubQuery<H>;
  /** The event carrying the state. */
  stateEvent: E;
  /** Reads the state after a (re)connect; null means the viewer may not see this game. */
  fetchState(connection: HubConnection<H>): Promise<EventPayload<H, E> | null>;
  /** False while it is not yet known who is signed in: nothing connects. */
  enabled?: boolean;
  /** A change reconnects (the contract: when the sign-in state changes, the connection restarts). */
  restartKey?: unknown;
  /** Each state shown, with the one before it; `live` is false for a resync. */
  onState?(
    next: EventPayload<H, E>,
    previous: EventPayload<H, E> | null,
    info: { live: boolean; connection: HubConnection<H> },
  ): void;
  /** Subscribes to the hub's other events on a new connection (chat, sounds). */
  listen?(connection: HubConnection<H>): void;
  /** After a resync succeeded: read what else the page needs (chat history). */
  onSynced?(connection: HubConnection<H>): void;
  /** The view was cleared (connection closed or stopped): clear what the page added. */
  onCleared?(): void;
  /** The start failed, reconnecting gave up, or a resync failed (the contract's toast). */
  onConnectFailed?(): void;
  /** The server refused for good for another reason than an unknown game. */
  onRefused?(info: { code: string | null }): void;
  /**
   * For a page nobody watches (an OBS source): once reconnecting gave up, or the connection was
   * lost, try again this often — e.g. UNATTENDED_RETRY_MS. Unset, it stays given up.
   */
  retryAfterGivingUpMs?: number;
}

/** How often an unattended page (an OBS overlay) tries again after the hub's schedule gave up. */
export const UNATTENDED_RETRY_MS = 30_000;

export interface LiveState<H extends HubSpec, S> {
  view: LiveView;
  status: HubStatus;
  state: S | null;
  /** Milliseconds to add to Date.now() to get the server's time. */
  clockOffset: number;
  /** The open connection, for calls (null between connections). */
  connection(): HubConnection<H> | null;
  retry(): void;
}

/** Keeps a newer state, drops an older one: the rule of a versioned live state. */
export function newer<S extends LiveStateView>(current: S | null, next: S): boolean {
  return current === null || current.id !== next.id || next.version >= current.version;
}

export function useLiveState<H extends HubSpec, E extends EventName<H>>(
  options: LiveStateOptions<H, E>,
): LiveState<H, EventPayload<H, E>> {
  type S = EventPayload<H, E>;
  const [view, setView] = useState<LiveView>('connecting');
  const [status, setStatus] = useState<HubStatus>('connecting');
  const [state, setState] = useState<S | null>(null);
  const [clockOffset, setClockOffset] = useState(0);
  const conn = useRef<HubConnection<H> | null>(null);
  // The latest callbacks, so a new closure from the page does not restart the connection.
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const { hub, stateEvent, enabled = true, restartKey } = options;
  const queryKey = JSON.stringify(options.query);

  useEffect(() => {
    if (!enabled) return;
    const query = JSON.parse(queryKey) as HubQuery<H>;
    let current: S | null = null;
    let startFailureShown = false;
    const clear = () => {
      current = null;
      setState(null);
      latest.current.onCleared?.();
    };
    const apply = (next: S, live: boolean) => {
      if (!newer(current as (S & LiveStateView) | null, next as S & LiveStateView)) return; // stale
      const previous = current;
      current = next;
      setState(next);
      setClockOffset(Date.parse((next as S & LiveStateView).serverTime) - Date.now());
      setView('live');
      latest.current.onState?.(next, previous, { live, connection });
    };
    const resync = async () => {
      try {
        const fresh = await latest.current.fetchState(connection);
        if (fresh === null) {
          clear();
          setView('private');
          return;
        }
        apply(fresh, false);
      } catch {
        latest.current.onConnectFailed?.();
        return;
      }
      latest.current.onSynced?.(connection);
    };
    const connection = new HubConnection(hub, query, {
      onStatus: setStatus,
      onConnected: () => void resync(),
      onClosed: ({ willRetry, everConnected }) => {
        clear(); // the contract: when the connection closes, the game view is cleared
        setView(!willRetry ? 'failed' : everConnected ? 'lost' : 'connecting');
        if (!willRetry || (!everConnected && !startFailureShown)) {
          startFailureShown = true;
          latest.current.onConnectFailed?.();
        }
      },
      onRefused: ({ code }) => {
        const missing = code === 'not_found' || code === 'bad_query'; // unknown game, or not a game id
        setView(missing ? 'not-found' : 'failed');
        if (!missing) latest.current.onRefused?.({ code });
      },
    });
    conn.current = connection;
    connection.on(stateEvent, (s) => apply(s, true));
    latest.current.listen?.(connection);
    connection.start();
    return () => {
      connection.stop();
      conn.current = null;
      setView('connecting');
      clear();
    };
  }, [hub, stateEvent, queryKey, enabled, restartKey]);

  const connection = useCallback(() => conn.current, []);
  const retry = useCallback(() => conn.current?.retry(), []);
  const retryAfter = options.retryAfterGivingUpMs;
  useEffect(() => {
    if (retryAfter === undefined || (view !== 'failed' && view !== 'lost')) return;
    const id = setTimeout(retry, retryAfter);
    return () => clearTimeout(id);
  }, [view, retry, retryAfter]);
  return { view, status, state, clockOffset, connection, retry };
}
