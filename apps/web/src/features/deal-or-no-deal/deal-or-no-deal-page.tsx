/**
 * /game/dealornodeal/{id} (docs/product.md#live-screens-and-routes,
 * docs/product.md#live-states-and-transitions), outside the shared layout and made for a stream
 * (OBS at 1080p): the board of 24 amounts (12 left, 12 right, opened ones struck through), the
 * boxes with the owner's own box apart, the bank offer and swap modals, the win screen with
 * confetti, the claim, and "Game Is Private". The server pushes every transition and names every
 * sound; this page only reacts. Only the owner gets buttons; everyone else watches.
 */
import { canModerate } from '@kickback/common/access';
import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { FaShieldHalved } from 'react-icons/fa6';
import { DealOrNoDealStatus as S, isEnded, statusText } from '@kickback/common/games/deal-or-no-deal';
import type { DealOrNoDealState } from '@kickback/common/hubs/deal-or-no-deal';
import { useAuth } from '../../shared/auth/auth-context';
import { Avatar } from '../../components/ui/avatar';
import { celebrate } from '../../components/live/confetti';
import { LiveGameStage } from '../../components/live/live-game-stage';
import { LiveGameToolbar } from '../../components/live/live-game-toolbar';
import { useCancelDealOrNoDeal } from './api';
import { BoardColumn, dollars } from './board-column';
import { BoxGrid } from './box-grid';
import { stopShowSounds } from './show-sounds';
import { useDealOrNoDeal, type LiveDealOrNoDeal } from './use-deal-or-no-deal';
import { useCreatedToast } from './created-toast';
import './deal-or-no-deal.css';

export default function DealOrNoDealPage() {
  const { id = '' } = useParams();
  const game = useDealOrNoDeal(id);
  useCreatedToast();
  const { isAuthenticated, signIn } = useAuth();
  const { state, view } = game;
  const celebrated = useRef<string | null>(null);

  // Confetti once per game when the win screen shows.
  useEffect(() => {
    if (!state || state.status !== S.Won || celebrated.current === state.id) return;
    celebrated.current = state.id;
    celebrate([0.25, 0.5, 0.75]);
  }, [state]);

  useEffect(() => () => stopShowSounds(), []);

  return (
    <LiveGameStage
      view={view}
      state={state}
      theme="dond"
      privateTo="the player"
      isAuthenticated={isAuthenticated}
      onSignIn={signIn}
      onRetry={game.retry}
    >
      {(state) => <Board state={state} game={game} />}
    </LiveGameStage>
  );
}

/** The show once there is a state: marquee, board, boxes, podium, the modals. */
function Board({ state, game }: { state: DealOrNoDealState; game: LiveDealOrNoDeal }) {
  const { user, isAuthenticated, signIn } = useAuth();
  const cancel = useCancelDealOrNoDeal();
  const { opening } = game;
  const { status } = state;
  const owner = game.isOwner;
  const name = state.user.username;
  const half = Math.ceil(state.amounts.length / 2);
  const left = state.amounts.slice(0, half);
  const right = state.amounts.slice(half);
  const canPick = owner && !game.busy && (status === S.PickYourBox || status === S.Opening);
  const isAdmin = canModerate(user?.role); // staff may cancel

  const primary = state.primaryBox;
  const ownBox = isEnded(status) ? (primary?.amount ?? null) : null;

  return (
    <section className={`dond-stage dond-status-${status}`} aria-label="Deal or No Deal game">
      <header className="dond-marquee">
        <h1 className="dond-title">
          Deal <span>or</span> No Deal
        </h1>
        <div className="dond-player">
          <Avatar url={state.user.avatarUrl} size={40} />
          <span className="dond-player-name">{name}</span>
        </div>
        <LiveGameToolbar
          theme="dond"
          isPrivate={state.isPrivate}
          connected={game.status === 'connected'}
          muteVariant="outline-light"
          onMutedChange={(muted) => muted && stopShowSounds()}
          cancel={{
            gameId: state.id,
            allowed: isAdmin && !isEnded(status),
            consequence: 'no prize is paid',
            mutation: cancel,
          }}
        />
      </header>

      <p className="dond-status-line" role="status" aria-live="polite" data-testid="status-text">
        {statusText(state, name)}
      </p>

      <BoardColumn amounts={left} side="left" highlight={opening?.amount ?? null} ownBox={ownBox} />

      <div className="dond-center">
        {opening && (
          <div className="dond-reveal" role="alert" key={opening.boxId}>
            <span className="dond-reveal-box">Box {opening.boxId}</span>
            <span className="dond-reveal-amount">{dollars(opening.amount)}</span>
          </div>
        )}
        <BoxGrid
          boxes={state.boxesInfo}
          primaryBoxId={state.primaryBoxId}
          canPick={canPick}
          opening={opening}
          onPick={(boxId) => void game.selectBox(boxId)}
        />
        <div className="dond-podium">
          {primary ? (
            <div className={`dond-box dond-box-primary${primary.isOpened ? ' is-open' : ''}`} data-testid="primary-box">
              <span className="dond-box-lid">{primary.id}</span>
              {primary.isOpened && primary.amount !== null && (
                <span className="dond-box-amount">{dollars(primary.amount)}</span>
              )}
            </div>
          ) : (
            <div className="dond-box-slot is-podium" aria-hidden />
          )}
          <div className="dond-podium-label">{primary ? `${name}'s box` : 'No box picked yet'}</div>
        </div>

        <div className="dond-actions">
          {status === S.WaitingForOwner && owner && (
            <Button size="lg" className="dond-cta" disabled={game.busy} onClick={() => void game.start()}>
              Start the game
            </Button>
          )}
          {status === S.Finished && owner && (
            <Button size="lg" className="dond-cta" disabled={game.busy} onClick={() => void game.claim()}>
              Claim The Game
            </Button>
          )}
          {status === S.Finished && !isAuthenticated && (
            <Button size="lg" variant="outline-light" onClick={signIn}>
              Sign In
            </Button>
          )}
          {(status === S.Finished || status === S.Claimed) && state.winningAmount !== null && (
            <p className="dond-result" data-testid="result">
              {name} won {dollars(state.winningAmount)}
              {state.ending === 'deal' ? ' by taking the deal' : state.ending === 'swap' ? ' by changing box' : ''}.
            </p>
          )}
          {status === S.Claimed && <p className="dond-note">The prize is on its way: the team delivers it.</p>}
          {status === S.Cancelled && <p className="dond-note">This game was cancelled. No prize is paid.</p>}
          {isEnded(status) && (
            <Link className="dond-verify-link" to={`/game/dealornodeal/${state.id}/verify`}>
              <FaShieldHalved aria-hidden /> Verify the board
            </Link>
          )}
        </div>
      </div>

      <BoardColumn amounts={right} side="right" highlight={opening?.amount ?? null} ownBox={ownBox} />

      <footer className="dond-commitment" title="SHA-256(seed ‖ board), published before the first box opened">
        Board commitment <code>{state.commitment.slice(0, 16)}…</code>
      </footer>

      {/* The offer waits for the last opening of the round to finish, so viewers see that box first. */}
      <Modal
        show={status === S.BankOffer && !opening}
        centered
        backdrop="static"
        keyboard={false}
        contentClassName="dond-modal"
        aria-label="The bank's offer"
      >
        <Modal.Body className="text-center">
          <div className="dond-modal-kicker">The Bank is calling</div>
          <div className="dond-offer" data-testid="offer">
            {dollars(state.currentOffer?.amount ?? 0)}
          </div>
          {owner ? (
            <div className="dond-modal-buttons">
              <Button size="lg" variant="success" disabled={game.busy} onClick={() => void game.answerOffer(true)}>
                Deal
              </Button>
              <Button size="lg" variant="danger" disabled={game.busy} onClick={() => void game.answerOffer(false)}>
                No Deal
              </Button>
            </div>
          ) : (
            <p className="dond-modal-wait">Deal or No Deal? {name} is deciding…</p>
          )}
        </Modal.Body>
      </Modal>

      <Modal
        show={status === S.SwapOffer}
        centered
        backdrop="static"
        keyboard={false}
        contentClassName="dond-modal"
        aria-label="Keep or change your box"
      >
        <Modal.Body className="text-center">
          <div className="dond-modal-kicker">Two boxes left</div>
          <p className="dond-modal-question">
            Box {state.primaryBoxId} or box{' '}
            {state.boxesInfo.find((b) => !b.isOpened && b.id !== state.primaryBoxId)?.id}?
          </p>
          {owner ? (
            <div className="dond-modal-buttons">
              <Button size="lg" variant="warning" disabled={game.busy} onClick={() => void game.answerSwap(true)}>
                Change it
              </Button>
              <Button
                size="lg"
                variant="outline-light"
                disabled={game.busy}
                onClick={() => void game.answerSwap(false)}
              >
                Keep it
              </Button>
            </div>
          ) : (
            <p className="dond-modal-wait">{name} is deciding: change it or keep it?</p>
          )}
        </Modal.Body>
      </Modal>

      <Modal show={status === S.Won} centered contentClassName="dond-modal dond-win" aria-label="The game is won">
        <Modal.Body className="text-center">
          <div className="dond-win-title">Congratulations! You won {dollars(state.winningAmount ?? 0)}</div>
          <p className="dond-modal-wait">
            {state.ending === 'deal'
              ? `${name} took the bank's deal.`
              : `${name} ${state.ending === 'swap' ? 'changed to' : 'kept'} box ${state.primaryBoxId}.`}
          </p>
        </Modal.Body>
      </Modal>
    </section>
  );
}
