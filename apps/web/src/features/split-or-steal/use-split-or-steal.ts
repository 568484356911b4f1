/**
 * The live Split or Steal game for the page, on the kit's live-game hook (useLiveGame):
 * one hub connection per game and signed-in user, the newest state, the view cleared when the
 * connection closes. This adds what is Split or Steal's: the sounds on entering status 3 and 4,
 * the player's own answer context in status 3, the chat, and the contract's toasts.
 */
import { useCallback, useState } from 'react';
import { toast } from '../../lib/toast';
import { SplitOrStealStatus } from '@kickback/common/games/split-or-steal';
import { messages } from '@kickback/common/messages';
import { splitOrStealHub, type answerContext, type SplitOrStealState } from '@kickback/common/hubs/split-or-steal';
import { GAME_CHAT_HISTORY, type GameChatMessage } from '@kickback/common/hubs/game-chat';
import type { z } from 'zod';
import type { HubStatus } from '../../lib/hub';
import type { LiveView } from '../../lib/use-live-state';
import { useLiveGame } from '../../shared/use-live-game';
import { useAuth } from '../../shared/auth/auth-context';
import { playSound } from '../../components/live/sounds';

export type AnswerContext = z.infer<typeof answerContext>;

/** What the page shows instead of the game. */
export type GameView = LiveView;

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
  const { user, refreshUser } = useAuth();
  const openId = user?.openId ?? null;
  const [answers, setAnswers] = useState<AnswerContext | null>(null);
  const [chat, setChat] = useState<GameChatMessage[]>([]);

  const mine = (s: SplitOrStealState): boolean =>
    openId !== null && (s.player1?.userId === openId || s.player2?.userId === openId);

  const live = useLiveGame(gameId, {
    hub: splitOrStealHub,
    stateEvent: 'ReceiveGameState',
    fetchState: (connection) => connection.call('GetGameState'),
    onState(next, previous, { live: isLive, connection }) {
      const entered = (code: number) => next.status === code && previous !== null && previous.status !== code;
      if (isLive && entered(SplitOrStealStatus.Choosing)) playSound('choose');
      if (isLive && entered(SplitOrStealStatus.Ended)) {
        playSound('reveal');
        if (mine(next)) void refreshUser(); // the header's points include the winnings
      }
      if (next.status === SplitOrStealStatus.Ended) setAnswers(next.answerContext);
      else if (next.status === SplitOrStealStatus.Choosing && mine(next) && previous?.status !== next.status) {
        connection
          .call('GetAnswerContext')
          .then(setAnswers)
          .catch(() => undefined); // the contract: if that fetch fails, the plain state is used
      } else if (next.status !== SplitOrStealStatus.Choosing) setAnswers(null);
    },
    listen(connection) {
      connection.on('ReceiveChatMessage', (m) =>
        setChat((list) => (list.some((x) => x.id === m.id) ? list : [m, ...list].slice(0, GAME_CHAT_HISTORY))),
      );
    },
    onSynced(connection) {
      connection
        .call('GetChatMessages')
        .then(setChat)
        .catch(() => undefined);
    },
    onCleared() {
      setAnswers(null);
      setChat([]);
    },
    onConnectFailed: () => toast.error(messages.unableToConnectGame),
  });
  const { state, connection } = live;

  const mySlot: 1 | 2 | null =
    openId && state ? (state.player1?.userId === openId ? 1 : state.player2?.userId === openId ? 2 : null) : null;

  const join = useCallback(
    async (slot: 1 | 2) => {
      try {
        await connection()!.call('JoinGame', slot);
      } catch {
        toast.error(messages.unableToJoinGame);
      }
    },
    [connection],
  );

  const select = useCallback(
    async (ball: 1 | 2) => {
      try {
        await connection()!.call('UpdateSelection', ball);
      } catch {
        toast.error(messages.unableToSelect);
      }
    },
    [connection],
  );

  const sendChat = useCallback(
    async (text: string) => {
      try {
        await connection()!.call('SendChatMessage', text);
        return true;
      } catch {
        toast.error(messages.chatMessageNotSent);
        return false;
      }
    },
    [connection],
  );

  return {
    view: live.view,
    status: live.status,
    state,
    answers,
    chat,
    clockOffset: live.clockOffset,
    mySlot,
    join,
    select,
    sendChat,
    retry: live.retry,
  };
}
