/**
 * /game/splitorsteal/{id} (docs/product.md#live-screens-and-routes,
 * docs/product.md#live-states-and-transitions): the stage with both players, the reward, the
 * status, the countdown, the balls, the result and the chat. The server pushes every transition;
 * this page only reacts. Built to read well on the stream (OBS at 1080p) and on a phone.
 */
import { canModerate } from '@kickback/common/access';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useParams } from 'react-router';
import Button from 'react-bootstrap/Button';
import { toast } from '../../lib/toast';
import { isFinal, SPLIT, SplitOrStealStatus, STEAL, statusText } from '@kickback/common/games/split-or-steal';
import type { SplitOrStealState } from '@kickback/common/hubs/split-or-steal';
import { useAuth } from '../../shared/auth/auth-context';
import { formatAmount } from '../../lib/format';
import { celebrate, sidePositions } from '../../components/live/confetti';
import { LiveGameStage } from '../../components/live/live-game-stage';
import { LiveGameToolbar } from '../../components/live/live-game-toolbar';
import { useSecondsLeft } from '../../components/live/use-seconds-left';
import { useCancelSplitOrSteal } from './api';
import { PlayerSlot } from './player-slot';
import { useSplitOrSteal, type AnswerContext, type LiveGame } from './use-split-or-steal';
import './split-or-steal.css';
import { countOf } from '@kickback/common/plural';

// The chat loads beside the game, not before it draws (docs/benchmarks.md#first-load-budget-per-page).
const GameChat = lazy(() => import('../../components/live/game-chat').then((m) => ({ default: m.GameChat })));

function ballsOf(slot: 1 | 2, answers: AnswerContext | null, state: SplitOrStealState): [number, number] {
  const source = answers ?? state.answerContext;
  return slot === 1
    ? [source.player1_Answer1, source.player1_Answer2]
    : [source.player2_Answer1, source.player2_Answer2];
}

function choiceOf(slot: 1 | 2, state: SplitOrStealState): number {
  const player = slot === 1 ? state.player1 : state.player2;
  const balls = ballsOf(slot, null, state);
  return player?.selection ? balls[player.selection - 1]! : SPLIT;
}

function outcomeHeadline(state: SplitOrStealState): string {
  const a = choiceOf(1, state);
  const b = choiceOf(2, state);
  if (a === SPLIT && b === SPLIT) return 'Both split — they share the reward!';
  if (a === STEAL && b === STEAL) return 'Both stole — nobody wins.';
  const stealer = a === STEAL ? state.player1 : state.player2;
  return `${stealer?.username ?? 'A player'} stole it all!`;
}

export default function SplitOrStealPage() {
  const { id = '' } = useParams();
  const game = useSplitOrSteal(id);
  const { isAuthenticated, signIn } = useAuth();
  const { state, view } = game;
  const seconds = useSecondsLeft(state?.phaseEndsAt ?? null, game.clockOffset);
  const celebrated = useRef<string | null>(null);

  // Winner confetti once per game when status 4 shows.
  useEffect(() => {
    if (!state || state.status !== SplitOrStealStatus.Ended || celebrated.current === state.id) return;
    celebrated.current = state.id;
    const winners = ([1, 2] as const).filter((s) => (s === 1 ? state.player1 : state.player2)?.isWinner);
    if (winners.length) celebrate(sidePositions(winners));
  }, [state]);

  return (
    <LiveGameStage
      view={view}
      state={state}
      theme="sos"
      privateTo="the players"
      backdrop={<div className="sos-lights" aria-hidden />}
      isAuthenticated={isAuthenticated}
      onSignIn={signIn}
      onRetry={game.retry}
    >
      {(state) => <Board state={state} game={game} seconds={seconds} />}
    </LiveGameStage>
  );
}

/** The stage once there is a state: marquee, seats, pot and countdown, chat. */
function Board({ state, game, seconds }: { state: SplitOrStealState; game: LiveGame; seconds: number | null }) {
  const { user, isAuthenticated, signIn } = useAuth();
  const cancel = useCancelSplitOrSteal();
  const openId = user?.openId ?? null;
  const status = state.status;
  const joining = status >= 0 && status <= 2;
  const canJoin = (slot: 1 | 2): boolean => {
    if (!isAuthenticated || !openId || !joining || game.mySlot) return false;
    const seat = slot === 1 ? state.player1 : state.player2;
    const reserved = slot === 1 ? state.reservedPlayer1 : state.reservedPlayer2;
    const otherReserved = slot === 1 ? state.reservedPlayer2 : state.reservedPlayer1;
    if (seat) return false;
    if (reserved && reserved.userId !== openId) return false;
    return otherReserved?.userId !== openId;
  };
  const isAdmin = canModerate(user?.role); // staff may cancel

  const names = {
    player1: state.player1?.username ?? state.reservedPlayer1?.username ?? null,
    player2: state.player2?.username ?? state.reservedPlayer2?.username ?? null,
  };

  return (
    <section className={`sos-stage sos-status-${status}`} aria-label="Split or Steal game">
      <div className="sos-lights" aria-hidden />
      <header className="sos-marquee">
        <h1 className="sos-title">
          Split <span>or</span> Steal
        </h1>
        <LiveGameToolbar
          theme="sos"
          isPrivate={state.isPrivate}
          connected={game.status === 'connected'}
          muteVariant="outline-secondary"
          onMutedChange={(muted) => toast.info(muted ? 'Sounds off.' : 'Sounds on.', { autoClose: 1500 })}
          cancel={{
            gameId: state.id,
            allowed: isAdmin && !isFinal(status),
            consequence: 'no points are paid',
            mutation: cancel,
          }}
        />
      </header>

      <p className="sos-status-line" role="status" aria-live="polite">
        {statusText(status, names)}
      </p>

      <div className="sos-arena">
        <PlayerSlot
          slot={1}
          status={status}
          player={state.player1}
          reserved={state.reservedPlayer1}
          balls={ballsOf(1, game.answers, state)}
          isMine={game.mySlot === 1}
          canJoin={canJoin(1)}
          onJoin={(s) => void game.join(s)}
          onSelect={(b) => void game.select(b)}
        />

        <div className="sos-center">
          <div className="sos-pot">
            <div className="sos-pot-label">Reward</div>
            <div className="sos-pot-amount" data-testid="reward">
              {formatAmount(state.reward)}
            </div>
            <div className="sos-pot-unit">points</div>
          </div>
          {status === SplitOrStealStatus.Choosing && (
            <div className="sos-countdown" aria-label={`${countOf(seconds ?? 0, 'second')} left`}>
              <span className="sos-countdown-number" aria-hidden>
                {seconds ?? 0}
              </span>
              <span className="sos-countdown-label">seconds</span>
            </div>
          )}
          {status === SplitOrStealStatus.Starting && (
            <div className="sos-countdown is-starting" aria-hidden>
              <span className="sos-countdown-number">{seconds ?? 3}</span>
              <span className="sos-countdown-label">get ready</span>
            </div>
          )}
          {status === SplitOrStealStatus.Ended && <div className="sos-headline">{outcomeHeadline(state)}</div>}
          {status === SplitOrStealStatus.Cancelled && (
            <div className="sos-headline is-cancelled">This game was cancelled. No points were paid.</div>
          )}
          {joining && (
            <div className="sos-hint">
              {isAuthenticated
                ? 'The game starts as soon as both seats are taken.'
                : 'Sign in to take a seat — or just watch.'}
            </div>
          )}
          {!isAuthenticated && joining && (
            <Button variant="outline-secondary" onClick={signIn}>
              Sign In
            </Button>
          )}
          <div className="sos-vs" aria-hidden>
            VS
          </div>
        </div>

        <PlayerSlot
          slot={2}
          status={status}
          player={state.player2}
          reserved={state.reservedPlayer2}
          balls={ballsOf(2, game.answers, state)}
          isMine={game.mySlot === 2}
          canJoin={canJoin(2)}
          onJoin={(s) => void game.join(s)}
          onSelect={(b) => void game.select(b)}
        />
      </div>

      <Suspense fallback={<div className="sos-chat" />}>
        <GameChat
          className="sos-chat"
          messages={game.chat}
          canSend={isAuthenticated}
          onSend={game.sendChat}
          onSignIn={signIn}
          playerIds={[state.player1?.userId, state.player2?.userId]}
        />
      </Suspense>
    </section>
  );
}
