/**
 * The live game for the page: one hub connection per game and signed-in user (a sign-in change
 * restarts it, spec part 2 §4), the newest state (older versions are dropped), the player's own
 * answer context in status 3, the chat, and the spec's toasts. When the connection closes the
 * view is cleared; every (re)connect resyncs with GetGameState.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { SplitOrStealStatus } from '@kickback/common/games/split-or-steal';
import { messages } from '@kickback/common/messages';
import { splitOrStealHub, type answerContext, type SplitOrStealState } from '@kickback/common/hubs/split-or-steal';
import type { GameChatMessage } from '@kickback/common/hubs/game-chat';
import type { z } from 'zod';
import { HubConnection, type HubStatus } from '../../lib/hub';
import { useAuth } from '../../app/auth/auth-context';
import { playSound } from './sounds';

export type AnswerContext = z.infer<typeof answerContext>;

/** What the page shows instead of the game. */
export type GameView = 'connecting' | 'live' | 'private' | 'not-found' | 'lost' | 'failed';

export interface LiveGame {
  view: GameView;
  status: HubStatus;
  state: SplitOrStealState | null;
  /** The signed-in player's own balls (status 3), or everyone's once the game ended. */
  answers: AnswerContext | null;
  chat: GameChatMessage[];
  /** Milliseconds to add to Date.now() to get the server's time. */
  clockOffset: number;
  mySlot: 1 | 2 | null;
  join(slot: 1 | 2): Promise<void>;
  select(ball: 1 | 2): Promise<void>;
  sendChat(text: string): Promise<boolean>;
  retry(): void;
}

export function useSplitOrSteal(gameId: string): LiveGame {
  const { user, initialising, refreshUser } = useAuth();
  const openId = user?.openId ?? null;
  const [view, setView] = useState<GameView>('connecting');
  const [status, setStatus] = useState<HubStatus>('connecting');
  const [state, setState] = useState<SplitOrStealState | null>(null);
  const [answers, setAnswers] = useState<AnswerContext | null>(null);
  const [chat, setChat] = useState<GameChatMessage[]>([]);
  const [clockOffset, setClockOffset] = useState(0);
  const conn = useRef<HubConnection<typeof splitOrStealHub> | null>(null);

  useEffect(() => {
    if (initialising) return; // connect once we know who is signed in
    let current: SplitOrStealState | null = null;
    let startFailureShown = false;
    const connection = new HubConnection(
      splitOrStealHub,
      { gameid: gameId },
      {
        onStatus: setStatus,
        onConnected: () => void resync(),
        onClosed: ({ willRetry, everConnected }) => {
          // The spec: when the connection closes, the game view is cleared.
          current = null;
          setState(null);
          setAnswers(null);
          setChat([]);
          setView(!willRetry ? 'failed' : everConnected ? 'lost' : 'connecting');
          // 'Unable to connect the game.' when the start fails, and when reconnecting gives up.
          if (!willRetry || (!everConnected && !startFailureShown)) {
            startFailureShown = true;
            toast.error(messages.unableToConnectGame);
          }
        },
        onRefused: ({ code }) => {
          // An unknown game, or an address that cannot be a game id.
          const missing = code === 'not_found' || code === 'bad_query';
          setView(missing ? 'not-found' : 'failed');
          if (!missing) toast.error(messages.unableToConnectGame);
        },
      },
    );
    conn.current = connection;

    const mine = (s: SplitOrStealState): boolean =>
      openId !== null && (s.player1?.userId === openId || s.player2?.userId === openId);

    const fetchAnswers = () => {
      connection
        .call('GetAnswerContext')
        .then(setAnswers)
        .catch(() => undefined); // the spec: if that fetch fails, the plain state is used
    };

    const apply = (next: SplitOrStealState, live: boolean) => {
      if (current && next.version < current.version) return; // stale (a late broadcast)
      const previous = current;
      current = next;
      setState(next);
      setClockOffset(Date.parse(next.serverTime) - Date.now());
      setView('live');
      const entered = (code: number) => next.status === code && previous !== null && previous.status !== code;
      if (live && entered(SplitOrStealStatus.Choosing)) playSound('choose');
      if (live && entered(SplitOrStealStatus.Ended)) {
        playSound('reveal');
        if (mine(next)) void refreshUser(); // the header's points include the winnings
      }
      if (next.status === SplitOrStealStatus.Ended) setAnswers(next.answerContext);
      else if (next.status === SplitOrStealStatus.Choosing && mine(next) && previous?.status !== next.status) {
        fetchAnswers();
      } else if (next.status !== SplitOrStealStatus.Choosing) setAnswers(null);
    };

    const resync = async () => {
      try {
        const fresh = await connection.call('GetGameState');
        if (fresh === null) {
          current = null;
          setState(null);
          setView('private');
          return;
        }
        apply(fresh, false);
      } catch {
        toast.error(messages.unableToConnectGame);
        return;
      }
      connection
        .call('GetChatMessages')
        .then(setChat)
        .catch(() => undefined);
    };

    connection.on('ReceiveGameState', (s) => apply(s, true));
    connection.on('ReceiveChatMessage', (m) =>
      setChat((list) => (list.some((x) => x.id === m.id) ? list : [m, ...list].slice(0, 100))),
    );
    connection.start();
    return () => {
      connection.stop();
      conn.current = null;
      setView('connecting');
      setState(null);
      setAnswers(null);
      setChat([]);
    };
  }, [gameId, openId, initialising, refreshUser]);

  const mySlot: 1 | 2 | null =
    openId && state ? (state.player1?.userId === openId ? 1 : state.player2?.userId === openId ? 2 : null) : null;

  const join = useCallback(async (slot: 1 | 2) => {
    try {
      await conn.current!.call('JoinGame', slot);
    } catch {
      toast.error(messages.unableToJoinGame);
    }
  }, []);

  const select = useCallback(async (ball: 1 | 2) => {
    try {
      await conn.current!.call('UpdateSelection', ball);
    } catch {
      toast.error(messages.unableToSelect);
    }
  }, []);

  const sendChat = useCallback(async (text: string) => {
    try {
      await conn.current!.call('SendChatMessage', text);
      return true;
    } catch {
      toast.error(messages.chatMessageNotSent);
      return false;
    }
  }, []);

  const retry = useCallback(() => conn.current?.retry(), []);

  return { view, status, state, answers, chat, clockOffset, mySlot, join, select, sendChat, retry };
}
