/**
 * The toolbar of a live game's marquee (docs/architecture.md#the-live-game-kit): the "Private"
 * chip, "Reconnecting…" while the hub is not connected, the sound switch, and for staff the Cancel
 * button with its confirmation. Cancelling calls the game's cancel endpoint; a refusal keeps the
 * question open (the API wrapper showed the server's message), a success closes it and says so.
 */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { toast } from '../../lib/toast';
import { FaLock, FaVolumeHigh, FaVolumeXmark } from 'react-icons/fa6';
import { messages } from '@kickback/common/messages';
import { isMuted, setMuted } from './sounds';

/** A game's cancel endpoint as a mutation (lib/query's useEndpointMutation). */
export interface CancelMutation {
  mutate(input: { params: { gameId: string } }, options: { onSuccess(): void }): void;
  isPending: boolean;
}

export interface CancelGame {
  gameId: string;
  /** Staff may cancel a game that has not ended. */
  allowed: boolean;
  /** What cancelling costs the players, after "Everyone watching sees it cancelled and". */
  consequence: string;
  mutation: CancelMutation;
}

export interface LiveGameToolbarProps {
  theme: string;
  isPrivate: boolean;
  connected: boolean;
  /** The sound switch's button variant (the stage is light or dark). */
  muteVariant: string;
  /** Told after the switch flipped (a toast, stopping the music). */
  onMutedChange?(muted: boolean): void;
  cancel: CancelGame;
}

export function LiveGameToolbar({
  theme,
  isPrivate,
  connected,
  muteVariant,
  onMutedChange,
  cancel,
}: LiveGameToolbarProps) {
  const [muted, setMutedState] = useState(isMuted);
  const [confirming, setConfirming] = useState(false);
  const sendCancel = () =>
    cancel.mutation.mutate(
      { params: { gameId: cancel.gameId } },
      {
        onSuccess: () => {
          setConfirming(false);
          toast.success(messages.gameCancelled);
        },
      },
    );
  const toggleMute = () => {
    setMuted(!muted);
    setMutedState(!muted);
    onMutedChange?.(!muted);
  };
  return (
    <div className={`${theme}-toolbar`}>
      {isPrivate && (
        <span className={`${theme}-chip`}>
          <FaLock aria-hidden /> Private
        </span>
      )}
      {!connected && <span className={`${theme}-chip is-warn`}>Reconnecting…</span>}
      <Button
        variant={muteVariant}
        size="sm"
        onClick={toggleMute}
        aria-label={muted ? 'Turn sounds on' : 'Turn sounds off'}
        aria-pressed={muted}
      >
        {muted ? <FaVolumeXmark aria-hidden /> : <FaVolumeHigh aria-hidden />}
      </Button>
      {cancel.allowed && (
        <Button variant="outline-danger" size="sm" onClick={() => setConfirming(true)}>
          Cancel
        </Button>
      )}
      <Modal show={confirming} onHide={() => setConfirming(false)} centered aria-labelledby={`${theme}-cancel-title`}>
        <Modal.Header closeButton>
          <Modal.Title id={`${theme}-cancel-title`}>Cancel this game?</Modal.Title>
        </Modal.Header>
        <Modal.Body>Everyone watching sees it cancelled and {cancel.consequence}. This cannot be undone.</Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={() => setConfirming(false)}>
            Keep playing
          </Button>
          <Button variant="danger" disabled={cancel.mutation.isPending} onClick={sendCancel}>
            Cancel game
          </Button>
        </Modal.Footer>
      </Modal>
    </div>
  );
}
