/**
 * /createsplitorsteal (admin, spec part 2 §2 "Create Split Or Steal form"): two searchable user
 * pickers, Reward Price, Game Time (seconds, default 10), Private Game, Create. Create is disabled
 * while submitting and enabled again on failure; success goes to the game.
 */
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import { DEFAULT_GAME_SECONDS } from '@kickback/common/games/split-or-steal';
import { splitOrStealEndpoints } from '@kickback/common/http/split-or-steal';
import type { UserOption } from '@kickback/common/http/users';
import { messages } from '@kickback/common/messages';
import { UserSelect } from '../../components/ui/user-select';
import { api } from '../../lib/api';
import { RecentGames } from './recent-games';

export default function CreateSplitOrStealPage() {
  const navigate = useNavigate();
  const [player1, setPlayer1] = useState<UserOption | null>(null);
  const [player2, setPlayer2] = useState<UserOption | null>(null);
  const [reward, setReward] = useState('');
  const [seconds, setSeconds] = useState(String(DEFAULT_GAME_SECONDS));
  const [isPrivate, setIsPrivate] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitting(true);
    try {
      const { gameId } = await api(splitOrStealEndpoints.create, {
        body: {
          player1UserId: player1?.value ?? null,
          player2UserId: player2?.value ?? null,
          reward: Number(reward),
          counterInSeconds: seconds === '' ? DEFAULT_GAME_SECONDS : Number(seconds),
          isPrivate,
        },
      });
      toast.success(messages.gameCreated);
      navigate(`/game/splitorsteal/${gameId}`);
    } catch {
      setSubmitting(false); // failure: the button works again (the API wrapper told why)
    }
  };

  return (
    <section className="container-xl py-4">
      <h1 className="h3 mb-1">Create Split Or Steal</h1>
      <p className="text-body-secondary mb-4">
        Two players, one reward. Each secretly picks Split or Steal: both split and they share it, one steals and takes
        it all, both steal and nobody wins. Leave a player empty to let anyone signed in take the seat.
      </p>
      <Form className="kb-card" style={{ maxWidth: '40rem' }} onSubmit={(e) => void submit(e)}>
        <Form.Group className="mb-3">
          <Form.Label htmlFor="sos-player1">Player 1</Form.Label>
          <UserSelect inputId="sos-player1" value={player1} onChange={setPlayer1} />
        </Form.Group>
        <Form.Group className="mb-3">
          <Form.Label htmlFor="sos-player2">Player 2</Form.Label>
          <UserSelect inputId="sos-player2" value={player2} onChange={setPlayer2} />
        </Form.Group>
        <div className="row g-3 mb-3">
          <Form.Group className="col-sm-6" controlId="sos-reward">
            <Form.Label>Reward Price</Form.Label>
            <Form.Control
              type="number"
              step="any"
              inputMode="decimal"
              value={reward}
              onChange={(e) => setReward(e.target.value)}
              placeholder="e.g. 100"
            />
            <Form.Text>Points, shared or stolen.</Form.Text>
          </Form.Group>
          <Form.Group className="col-sm-6" controlId="sos-seconds">
            <Form.Label>Game Time (seconds)</Form.Label>
            <Form.Control
              type="number"
              inputMode="numeric"
              value={seconds}
              onChange={(e) => setSeconds(e.target.value)}
            />
            <Form.Text>How long the players have to choose.</Form.Text>
          </Form.Group>
        </div>
        <Form.Check
          type="switch"
          id="sos-private"
          className="mb-4"
          label="Private Game"
          checked={isPrivate}
          onChange={(e) => setIsPrivate(e.target.checked)}
        />
        <Button type="submit" disabled={submitting}>
          Create
        </Button>
      </Form>
      <RecentGames />
    </section>
  );
}
