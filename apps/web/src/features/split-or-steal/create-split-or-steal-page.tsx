/**
 * /createsplitorsteal (admin, docs/product.md#live-screens-and-routes "Create Split Or Steal
 * form"): two searchable user pickers, Reward Price, Game Time (seconds, default 10), Private Game,
 * Create. Create is disabled while submitting and enabled again on failure; success goes to the
 * game.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Controller } from 'react-hook-form';
import { toast } from 'react-toastify';
import { DEFAULT_GAME_SECONDS, MAX_GAME_SECONDS, MIN_GAME_SECONDS } from '@kickback/common/games/split-or-steal';
import { createSplitOrStealBody } from '@kickback/common/http/split-or-steal';
import type { UserOption } from '@kickback/common/http/users';
import { messages } from '@kickback/common/messages';
import { UserSelect } from '../../components/ui/user-select';
import { FieldError, setServerErrors, useZodForm } from '../../lib/forms';
import { useCreateSplitOrSteal } from './api';
import { RecentGames } from './recent-games';

/** An empty number field is not 0: it stays NaN, so the schema says what to enter. */
const asNumber = (v: unknown) => (v === '' || v === null || v === undefined ? Number.NaN : Number(v));

const fieldNames = ['player1UserId', 'player2UserId', 'reward', 'counterInSeconds', 'isPrivate'] as const;

export default function CreateSplitOrStealPage() {
  const navigate = useNavigate();
  const [players, setPlayers] = useState<Record<'player1UserId' | 'player2UserId', UserOption | null>>({
    player1UserId: null,
    player2UserId: null,
  });
  const create = useCreateSplitOrSteal();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useZodForm(createSplitOrStealBody, {
    defaultValues: {
      player1UserId: null,
      player2UserId: null,
      counterInSeconds: DEFAULT_GAME_SECONDS,
      isPrivate: false,
    },
  });

  const submit = handleSubmit(async (body) => {
    try {
      const { gameId } = await create.mutateAsync({ body });
      toast.success(messages.gameCreated);
      navigate(`/game/splitorsteal/${gameId}`);
    } catch (err) {
      // The button works again; the API wrapper told why, and a field's problem is on its field.
      setServerErrors(err, setError, fieldNames);
    }
  });
  const invalid = (name: (typeof fieldNames)[number]) => ({
    isInvalid: Boolean(errors[name]),
    'aria-invalid': Boolean(errors[name]),
    'aria-describedby': `sos-${name}-error`,
  });
  const playerPicker = (name: 'player1UserId' | 'player2UserId', label: string, id: string) => (
    <Form.Group className="mb-3">
      <Form.Label htmlFor={id}>{label}</Form.Label>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <UserSelect
            inputId={id}
            value={players[name]}
            onChange={(option) => {
              setPlayers((p) => ({ ...p, [name]: option }));
              field.onChange(option?.value ?? null);
            }}
          />
        )}
      />
      {errors[name]?.message && (
        <div className="invalid-feedback d-block" id={`sos-${name}-error`} role="alert">
          {errors[name].message}
        </div>
      )}
    </Form.Group>
  );

  return (
    <section className="container-xl py-4">
      <h1 className="h3 mb-1">Create Split Or Steal</h1>
      <p className="text-body-secondary mb-4">
        Two players, one reward. Each secretly picks Split or Steal: both split and they share it, one steals and takes
        it all, both steal and nobody wins. Leave a player empty to let anyone signed in take the seat.
      </p>
      <Form className="kb-card" style={{ maxWidth: '40rem' }} onSubmit={(e) => void submit(e)} noValidate>
        {playerPicker('player1UserId', 'Player 1', 'sos-player1')}
        {playerPicker('player2UserId', 'Player 2', 'sos-player2')}
        <div className="row g-3 mb-3">
          <Form.Group className="col-sm-6" controlId="sos-reward">
            <Form.Label>Reward Price</Form.Label>
            <Form.Control
              type="number"
              step={0.01}
              min={0.01}
              max={100_000_000}
              inputMode="decimal"
              placeholder="e.g. 100"
              {...register('reward', { setValueAs: asNumber })}
              {...invalid('reward')}
            />
            <FieldError id="sos-reward-error" message={errors.reward?.message} />
            <Form.Text>Points, shared or stolen.</Form.Text>
          </Form.Group>
          <Form.Group className="col-sm-6" controlId="sos-seconds">
            <Form.Label>Game Time (seconds)</Form.Label>
            <Form.Control
              type="number"
              inputMode="numeric"
              step={1}
              min={MIN_GAME_SECONDS}
              max={MAX_GAME_SECONDS}
              {...register('counterInSeconds', { setValueAs: asNumber })}
              {...invalid('counterInSeconds')}
            />
            <FieldError id="sos-counterInSeconds-error" message={errors.counterInSeconds?.message} />
            <Form.Text>How long the players have to choose.</Form.Text>
          </Form.Group>
        </div>
        <Form.Check type="switch" id="sos-private" className="mb-4" label="Private Game" {...register('isPrivate')} />
        <Button type="submit" disabled={isSubmitting}>
          Create
        </Button>
      </Form>
      <RecentGames />
    </section>
  );
}
