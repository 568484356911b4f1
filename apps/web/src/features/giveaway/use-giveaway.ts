/**
 * The admin giveaway page's live data over `/KickGiveAway` (docs/product.md#live-calls): one hub
 * connection with an automatic reconnect (lib/hub), a resync of state, participants and recent
 * winners after every (re)connect, the pushed events, and the calls — each failure shown as the
 * toast of docs/product.md#live-errors-and-toasts (spelled as there). The state is not a versioned
 * game state, so this uses the hub client directly rather than the live-state hook.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '../../lib/toast';
import { giveawayDone, giveawayToasts } from '@kickback/common/giveaway/texts';
import {
  giveawayHub,
  type GiveawayParticipant,
  type GiveawayRoll,
  type GiveawaySettings,
  type GiveawayState,
  type WinnerMessage,
} from '@kickback/common/hubs/giveaway';
import { HubConnection, type HubStatus } from '../../lib/hub';

export interface Giveaway {
  status: HubStatus;
  state: GiveawayState | null;
  participants: GiveawayParticipant[];
  recentWinners: GiveawayParticipant[];
  winnerMessages: WinnerMessage[];
  /** The latest roll: the one being spun, or the last result (also one from before the page opened). */
  roll: GiveawayRoll | null;
  /** The roll this page animates: only one it saw start live (a roll from before it opened is never spun). */
  spinRoll: GiveawayRoll | null;
  spinning: boolean;
  /** The winners shown in the panel once the spinner landed. */
  shownWinners: GiveawayParticipant[];
  rollNow(): Promise<void>;
  landed(rollId: string): void;
  clearParticipants(): Promise<void>;
  clearRecentWinners(): Promise<void>;
  addKey(key: string): Promise<boolean>;
  setKeys(keys: string[]): Promise<void>;
  updateSettings(settings: GiveawaySettings): Promise<boolean>;
}

export function useGiveaway(): Giveaway {
  const [status, setStatus] = useState<HubStatus>('connecting');
  const [state, setState] = useState<GiveawayState | null>(null);
  const [participants, setParticipants] = useState<GiveawayParticipant[]>([]);
  const [recentWinners, setRecentWinners] = useState<GiveawayParticipant[]>([]);
  const [winnerMessages, setWinnerMessages] = useState<WinnerMessage[]>([]);
  const [roll, setRoll] = useState<GiveawayRoll | null>(null);
  const [spinRoll, setSpinRoll] = useState<GiveawayRoll | null>(null);
  const [spinning, setSpinning] = useState(false);
  const [shownWinners, setShownWinners] = useState<GiveawayParticipant[]>([]);
  const connection = useRef<HubConnection<typeof giveawayHub> | null>(null);
  const spinningRef = useRef(false);
  /** Recent winners that arrived mid-spin: shown when the spinner lands (docs/product.md#giveaway-spinner). */
  const heldWinners = useRef<GiveawayParticipant[] | null>(null);

  const startSpin = useCallback((next: GiveawayRoll) => {
    setSpinRoll((current) => {
      if (current?.rollId === next.rollId) return current;
      spinningRef.current = true;
      setSpinning(true);
      setWinnerMessages([]);
      setRoll(next);
      return next;
    });
  }, []);

  useEffect(() => {
    const c = new HubConnection(
      giveawayHub,
      {},
      {
        onStatus: setStatus,
        onConnected() {
          c.call('GetState').then(
            (s) => {
              setState(s);
              setWinnerMessages(s.winnerMessages);
              // A roll from before this page opened (or from while it was offline) is a result: shown
              // as the winner, never spun again nor added to recent winners (those come from the server).
              if (!spinningRef.current && s.lastRoll) {
                setRoll(s.lastRoll);
                setShownWinners(s.lastRoll.winners);
              }
            },
            () => toast.error(giveawayToasts.stateFailed),
          );
          c.call('GetParticipants').then(setParticipants, () => toast.error(giveawayToasts.participantsFailed));
          c.call('GetLatestWinners').then(setRecentWinners, () => toast.error(giveawayToasts.winnersFailed));
        },
        onClosed({ willRetry }) {
          if (!willRetry) toast.error(giveawayToasts.connectFailed);
        },
      },
    );
    c.on('ReceiveState', setState);
    c.on('ReceiveParticipants', setParticipants);
    c.on('ReceiveNewParticipant', (p) =>
      setParticipants((list) => (list.some((x) => x.kickUserId === p.kickUserId) ? list : [...list, p])),
    );
    c.on('ReceiveNewWinnerMessage', (m) => setWinnerMessages((list) => [...list, m].slice(-100)));
    c.on('ReceiveWinners', (list) => {
      if (spinningRef.current) heldWinners.current = list;
      else setRecentWinners(list);
    });
    c.on('ReceiveRoll', startSpin);
    connection.current = c;
    c.start();
    return () => {
      connection.current = null;
      c.stop();
    };
  }, [startSpin]);

  const rollNow = useCallback(async () => {
    const c = connection.current;
    if (!c || spinningRef.current || participants.length === 0) return;
    spinningRef.current = true; // a second click while the call runs does nothing
    try {
      startSpin(await c.call('Roll'));
    } catch {
      spinningRef.current = false;
      toast.error(giveawayToasts.rollFailed);
    }
  }, [participants.length, startSpin]);

  const landed = useCallback(
    (rollId: string) => {
      if (spinRoll?.rollId !== rollId) return;
      spinningRef.current = false;
      setSpinning(false);
      setShownWinners(spinRoll.winners);
      const held = heldWinners.current;
      heldWinners.current = null;
      setRecentWinners((list) => held ?? [...spinRoll.winners, ...list.filter((w) => !spinRoll.winners.includes(w))]);
    },
    [spinRoll],
  );

  const run = useCallback(async <T>(what: (c: HubConnection<typeof giveawayHub>) => Promise<T>, failed: string) => {
    const c = connection.current;
    try {
      if (!c) throw new Error('Not connected.');
      return { ok: true as const, value: await what(c) };
    } catch {
      toast.error(failed);
      return { ok: false as const };
    }
  }, []);

  return {
    status,
    state,
    participants,
    recentWinners,
    winnerMessages,
    roll,
    spinRoll,
    spinning,
    shownWinners,
    rollNow,
    landed,
    async clearParticipants() {
      if ((await run((c) => c.call('ClearParticipants'), giveawayToasts.clearParticipantsFailed)).ok) {
        setParticipants([]);
        toast.success(giveawayDone.participantsCleared);
      }
    },
    async clearRecentWinners() {
      if ((await run((c) => c.call('ClearRecentWinners'), giveawayToasts.clearWinnersFailed)).ok) {
        setRecentWinners([]);
        toast.success(giveawayDone.winnersCleared);
      }
    },
    async addKey(key) {
      const r = await run((c) => c.call('AddKey', key), giveawayToasts.addKeyFailed);
      if (r.ok) {
        setState((s) => (s ? { ...s, keys: r.value } : s));
        toast.success(giveawayDone.keyAdded(key));
      }
      return r.ok;
    },
    async setKeys(keys) {
      const r = await run((c) => c.call('SetKeys', keys), giveawayToasts.setKeysFailed);
      if (r.ok) {
        setState((s) => (s ? { ...s, keys: r.value } : s));
        toast.success(giveawayDone.keysSaved(keys.length));
      }
    },
    async updateSettings(settings) {
      const r = await run((c) => c.call('UpdateStateSettings', settings), giveawayToasts.updateSettingFailed);
      if (r.ok) {
        setState((s) => (s ? { ...s, settings: r.value } : s));
        toast.success(giveawayDone.settingsSaved);
      }
      return r.ok;
    },
  };
}
