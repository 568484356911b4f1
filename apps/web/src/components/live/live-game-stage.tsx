/**
 * What every live game page shows instead of its board (docs/architecture.md#the-live-game-kit):
 * "Game not found", "Game Is Private" (with Sign In for a visitor), connecting, reconnecting after
 * a lost connection, and "Unable to connect the game" with Try again. Once there is a state, the
 * board is drawn by the game's own `children`. Each game keeps its look: the stage's classes are
 * `{theme}-stage`, `{theme}-message-card`, `{theme}-message-title`.
 */
import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { FaLock } from 'react-icons/fa6';
import type { LiveView } from '../../lib/use-live-state';

export interface LiveGameStageProps<S> {
  view: LiveView;
  state: S | null;
  /** The class prefix of the game's stylesheet ('sos', 'dond'). */
  theme: string;
  /** Who may watch a private game, as the page says it ("the players", "the player"). */
  privateTo: string;
  /** Drawn behind the message card (the stage lights). */
  backdrop?: ReactNode;
  isAuthenticated: boolean;
  onSignIn(): void;
  onRetry(): void;
  children(state: S): ReactNode;
}

function Message({
  theme,
  backdrop,
  title,
  children,
}: {
  theme: string;
  backdrop?: ReactNode;
  title: string;
  children?: ReactNode;
}) {
  return (
    <section className={`${theme}-stage ${theme}-stage-message`}>
      {backdrop}
      <div className={`${theme}-message-card`}>
        <h1 className={`${theme}-message-title`}>{title}</h1>
        {children}
      </div>
    </section>
  );
}

export function LiveGameStage<S>(props: LiveGameStageProps<S>) {
  const { view, state, theme, backdrop } = props;
  if (view === 'not-found') {
    return (
      <Message theme={theme} backdrop={backdrop} title="Game not found">
        <p>There is no game at this address. Check the link from the stream.</p>
      </Message>
    );
  }
  if (view === 'private') {
    return (
      <Message theme={theme} backdrop={backdrop} title="Game Is Private">
        <p>
          <FaLock aria-hidden /> Only {props.privateTo} and the hosts can watch this game.
        </p>
        {!props.isAuthenticated && (
          <Button size="lg" onClick={props.onSignIn}>
            Sign In
          </Button>
        )}
      </Message>
    );
  }
  if (state === null) {
    const failed = view === 'failed';
    const title = failed ? 'Unable to connect the game' : view === 'lost' ? 'Connection lost' : 'Connecting…';
    return (
      <Message theme={theme} backdrop={backdrop} title={title}>
        {failed ? (
          <Button size="lg" onClick={props.onRetry}>
            Try again
          </Button>
        ) : (
          <p className="d-flex align-items-center justify-content-center gap-2">
            <Spinner as="span" animation="border" size="sm" role="status" aria-label="Connecting" />
            {view === 'lost' ? 'Reconnecting to the game…' : 'Joining the game…'}
          </p>
        )}
      </Message>
    );
  }
  return <>{props.children(state)}</>;
}
