/** The live prediction on the admin page: its counts as they come, and Lock / Resolve / Cancel / Hide. */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import { abbreviatePoints } from '@kickback/common/games/prediction';
import type { PredictionState } from '@kickback/common/hubs/prediction';
import { usePredictionActions, type PredictionAction } from './api';
import { statusLabel } from './status-label';

const actionDone: Record<PredictionAction, string> = {
  lock: 'Prediction locked: no more bets.',
  cancel: 'Prediction cancelled: every bet is refunded.',
  hide: 'Prediction hidden from the overlay.',
};

/** Its actions invalidate the predictions list (their mutations); `onChanged` is told as well. */
export function CurrentPrediction({ state, onChanged }: { state: PredictionState; onChanged?(): void }) {
  // The choice belongs to one prediction: a new one starts with nothing selected.
  const [choice, setChoice] = useState({ predictionId: state.id, winner: '' });
  const winner = choice.predictionId === state.id ? choice.winner : '';
  const setWinner = (value: string) => setChoice({ predictionId: state.id, winner: value });
  const [busy, setBusy] = useState(false);
  const { act: actOn, resolve } = usePredictionActions();
  const open = state.state === 1 || state.state === 3;
  const settled = state.state === 2 || state.state === 4;

  /** Runs one admin action and says what happened (a failure is shown by the API wrapper). */
  const run = async (call: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await call();
      toast.success(done);
      onChanged?.();
    } catch {
      // shown by the API wrapper
    } finally {
      setBusy(false);
    }
  };
  const act = (action: PredictionAction) => run(() => actOn(state.id, action), actionDone[action]);
  const chosen = state.answers.find((a) => String(a.id) === winner);

  return (
    <section className="kb-card mb-4" aria-label="Current prediction">
      <div className="d-flex justify-content-between align-items-baseline">
        <h2 className="h5 mb-1">{state.content}</h2>
        <span className="badge text-bg-secondary" data-testid="prediction-status">
          {state.state === 0 ? 'HIDDEN' : statusLabel(state)}
        </span>
      </div>
      <ul className="list-unstyled my-3">
        {state.answers.map((a) => (
          <li key={a.id} className="d-flex gap-2 align-items-center mb-1">
            <span className="kb-pred-option" style={{ background: a.color }}>
              {a.id}
            </span>
            <span className="flex-grow-1">{a.text}</span>
            <span>
              {a.participantCount} {a.participantCount === 1 ? 'bettor' : 'bettors'}
            </span>
            <span className="text-body-secondary">{abbreviatePoints(a.points)} pts</span>
          </li>
        ))}
      </ul>
      <div className="d-flex flex-wrap gap-2 align-items-center">
        <Button variant="warning" disabled={busy || state.state !== 1} onClick={() => void act('lock')}>
          Lock
        </Button>
        <Form.Select
          aria-label="Winning answer"
          // As wide as its longest answer, but never wider than the card (a phone, a long answer).
          style={{ width: 'auto', maxWidth: '100%' }}
          value={winner}
          disabled={!open}
          onChange={(e) => setWinner(e.target.value)}
        >
          <option value="">Winning answer…</option>
          {state.answers.map((a) => (
            <option key={a.id} value={a.id}>
              {a.id}. {a.text}
            </option>
          ))}
        </Form.Select>
        <Button
          variant="success"
          disabled={busy || !open || winner === ''}
          onClick={() =>
            void run(
              () => resolve(state.id, Number(winner)),
              `Prediction resolved: "${chosen?.text ?? winner}" won; the pool is paid out.`,
            )
          }
        >
          Resolve
        </Button>
        <Button variant="danger" disabled={busy || !open} onClick={() => void act('cancel')}>
          Cancel
        </Button>
        <Button variant="outline-secondary" disabled={busy || !settled} onClick={() => void act('hide')}>
          Hide
        </Button>
      </div>
    </section>
  );
}
