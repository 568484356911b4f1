/**
 * The live Deal or No Deal game for the page, on the kit's live-game hook (useLiveGame):
 * one hub connection per game and signed-in user, the newest state, the view cleared when the
 * connection closes. This adds what is Deal or No Deal's: the sounds and box openings the server
 * announces, the owner's actions, and the toasts of docs/product.md#live-errors-and-toasts.
 */
import { useCallback, useRef, useState } from 'react';
import { toast } from '../../lib/toast';
import { messages } from '@kickback/common/messages';
import { dealOrNoDealHub, type CaseOpened, type DealOrNoDealState } from '@kickback/common/hubs/deal-or-no-deal';
import type { HubStatus } from '../../lib/hub';
import type { LiveView } from '../../lib/use-live-state';
import { useLiveGame } from '../../shared/use-live-game';
import { useAuth } from '../../shared/auth/auth-context';
import { playShowSound, stopShowSounds, stopThinkingMusic } from './show-sounds';

/** How long an opened box holds the stage before the next one may (ms). */
export const OPENING_MS = 1800;

export interface LiveDealOrNoDeal {
  view: LiveView;
  status: HubStatus;
  state: DealOrNoDealState | null;
  /** The box being opened right now, for the animation. */
  opening: CaseOpened | null;
  isOwner: boolean;
  /** An action is on its way: the owner's buttons wait for it. */
  busy: boolean;
  start(): Promise<void>;
  selectBox(id: number): Promise<void>;
  answerOffer(deal: boolean): Promise<void>;
  answerSwap(swap: boolean): Promise<void>;
  claim(): Promise<void>;
  retry(): void;
}

export function useDealOrNoDeal(gameId: string): LiveDealOrNoDeal {
  const { user, refreshUser } = useAuth();
  const openId = user?.openId ?? null;
  const [opening, setOpening] = useState<CaseOpened | null>(null);
  const [busy, setBusy] = useState(false);
  const openingTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const hadState = useRef(false);
  const stateFailed = useRef(false);

  const live = useLiveGame(gameId, {
    hub: dealOrNoDealHub,
    stateEvent: 'GameStateChange',
    async fetchState(connection) {
      try {
        return await connection.call('GetGameState');
      } catch (err) {
        stateFailed.current = true;
        toast.error(messages.unableToGetGameState);
        throw err;
      }
    },
    onState(next) {
      hadState.current = true;
      if (next.status !== 4) stopThinkingMusic();
    },
    listen(connection) {
      connection.on('PlaySound', (sound) => playShowSound(sound));
      connection.on('StopSound', () => stopShowSounds());
      connection.on('CaseOpened', (opened) => {
        setOpening(opened);
        if (openingTimer.current) clearTimeout(openingTimer.current);
        openingTimer.current = setTimeout(() => setOpening(null), OPENING_MS);
      });
    },
    onCleared() {
      setOpening(null);
      stopShowSounds();
    },
    onConnectFailed() {
      if (stateFailed.current) {
        stateFailed.current = false; // its own toast was shown
        return;
      }
      toast.error(hadState.current ? messages.unableToReconnectGame : messages.unableToConnectGame);
    },
  });
  const { state, connection } = live;
  const isOwner = openId !== null && state?.user.userId === openId;

  /** Runs an owner's call, one at a time, with its toast on failure. */
  const run = useCallback(
    async (call: (c: NonNullable<ReturnType<typeof connection>>) => Promise<unknown>, failure: string | null) => {
      const c = connection();
      if (!c) return void toast.error(failure ?? messages.unableToConnectGame);
      setBusy(true);
      try {
        await call(c);
      } catch (err) {
        // null: the contract has no toast for this call, so the server's own words say why.
        toast.error(failure ?? (err instanceof Error ? err.message : messages.systemError));
      } finally {
        setBusy(false);
      }
    },
    [connection],
  );

  return {
    view: live.view,
    status: live.status,
    state,
    opening,
    isOwner,
    busy,
    start: () => run((c) => c.call('StartGame'), null),
    selectBox: (id) => run((c) => c.call('SelectBox', id), messages.unableToSelectBox),
    answerOffer: (deal) => run((c) => c.call('AnswerOffer', deal), messages.unableToAnswerOffer),
    answerSwap: (swap) => run((c) => c.call('answerSwapOffer', swap), messages.unableToAnswerOffer),
    claim: async () => {
      await run((c) => c.call('Claim'), null);
      void refreshUser();
    },
    retry: live.retry,
  };
}
