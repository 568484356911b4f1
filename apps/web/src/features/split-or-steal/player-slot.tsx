/**
 * One side of the stage: the player (or the open/reserved seat), the Join button, their two
 * balls, and in status 4 their pick, winnings and the winner marker.
 */
import Button from 'react-bootstrap/Button';
import { FaCrown, FaUserPlus } from 'react-icons/fa6';
import { SPLIT, SplitOrStealStatus } from '@kickback/common/games/split-or-steal';
import type { ReservedPlayer, SplitOrStealPlayer } from '@kickback/common/hubs/split-or-steal';
import { Avatar } from '../../components/ui/avatar';
import { formatAmount } from '../../lib/format';

export interface PlayerSlotProps {
  slot: 1 | 2;
  status: number;
  player: SplitOrStealPlayer | null;
  reserved: ReservedPlayer | null;
  /** What this player's balls hold, as far as the viewer may know (0 = hidden). */
  balls: [number, number];
  isMine: boolean;
  canJoin: boolean;
  onJoin(slot: 1 | 2): void;
  onSelect(ball: 1 | 2): void;
}

const word = (answer: number) => (answer === 0 ? null : answer === SPLIT ? 'Split' : 'Steal');

export function PlayerSlot({
  slot,
  status,
  player,
  reserved,
  balls,
  isMine,
  canJoin,
  onJoin,
  onSelect,
}: PlayerSlotProps) {
  const ended = status === SplitOrStealStatus.Ended;
  const joinable = status >= 0 && status <= 2;
  const choosing = status === SplitOrStealStatus.Choosing;
  const seatedPhase = choosing || ended || status === SplitOrStealStatus.Starting;
  const winner = ended && player?.isWinner === true;
  const chosen = player?.selection ?? null;
  const choice = ended && player ? (chosen ? word(balls[chosen - 1]!) : 'Split') : null;

  return (
    <article
      className={`sos-slot sos-slot-${slot}${winner ? ' is-winner' : ''}${isMine ? ' is-mine' : ''}${ended && !winner && player ? ' is-loser' : ''}`}
      aria-label={`Player ${slot}`}
    >
      <div className="sos-slot-label">Player {slot}</div>
      <div className="sos-podium">
        <div className={`sos-avatar-ring${player ? '' : ' is-empty'}`}>
          {winner && <FaCrown className="sos-crown" aria-hidden />}
          {player ? (
            <Avatar url={player.avatarUrl} size={112} alt="" />
          ) : reserved ? (
            <Avatar url={reserved.avatarUrl} size={112} alt="" />
          ) : (
            <FaUserPlus className="sos-empty-icon" aria-hidden />
          )}
        </div>
        <h2 className="sos-name">
          {player ? player.username : reserved ? reserved.username : joinable ? 'Open seat' : 'Empty seat'}
          {isMine && <span className="sos-you">You</span>}
        </h2>
        {/* An invitation only while seats can still be taken: never under a cancelled or finished game. */}
        {!player && joinable && (
          <p className="sos-seat-note">
            {reserved ? 'Reserved seat — waiting to join' : 'Anyone signed in can take this seat'}
          </p>
        )}
        {winner && (
          <div className="sos-winner-tag" role="note">
            Winner
          </div>
        )}
      </div>

      {canJoin && (
        <Button className="sos-join" size="lg" onClick={() => onJoin(slot)}>
          Join as Player {slot}
        </Button>
      )}

      {player && seatedPhase && (
        <div className="sos-balls" role="group" aria-label={`Player ${slot}'s balls`}>
          {([1, 2] as const).map((ball) => {
            const content = word(balls[ball - 1]!);
            const picked = chosen === ball;
            const cls = `sos-ball ${content ? content.toLowerCase() : 'closed'}${picked ? ' is-picked' : ''}`;
            if (isMine && choosing) {
              return (
                <button
                  key={ball}
                  type="button"
                  className={cls}
                  aria-pressed={picked}
                  aria-label={content ?? `Ball ${ball}`}
                  onClick={() => onSelect(ball)}
                >
                  <span className="sos-ball-face">{content ?? ball}</span>
                </button>
              );
            }
            return (
              <div
                key={ball}
                className={cls}
                role="img"
                aria-label={`Ball ${ball}: ${content ?? 'hidden'}${picked ? ', picked' : ''}`}
              >
                <span className="sos-ball-face">{content ?? '?'}</span>
              </div>
            );
          })}
        </div>
      )}

      {player && choosing && (
        <p className="sos-pick-note">
          {isMine
            ? chosen
              ? 'Locked in — you can still change your mind.'
              : 'Pick Split or Steal before the time runs out.'
            : chosen
              ? `${player.username} has picked a ball.`
              : `${player.username} is thinking…`}
        </p>
      )}

      {ended && player && (
        <div className="sos-result">
          <div className="sos-choice">{chosen ? `Chose ${choice}` : 'No pick — counts as Split'}</div>
          {player.prizeHeld ? (
            <div className="sos-winnings is-held" data-testid={`winnings-${player.userId}`}>
              <span className="kb-amount">{formatAmount(player.winnings ?? 0)}</span> <small>points</small>
              <span className="sos-held-note">Awaiting an admin&rsquo;s approval: not in the balance yet</span>
            </div>
          ) : (
            <div className={`sos-winnings${winner ? ' is-up' : ''}`} data-testid={`winnings-${player.userId}`}>
              <span className="kb-amount">+{formatAmount(player.winnings ?? 0)}</span> <small>points</small>
            </div>
          )}
        </div>
      )}
    </article>
  );
}
