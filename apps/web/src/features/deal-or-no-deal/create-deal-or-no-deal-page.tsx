/**
 * /createdealornodeal (admin, docs/product.md#live-screens-and-routes "Create Deal Or No Deal
 * form"): a searchable Player 1 picker, the Private switch and Create. No reward field shows; the
 * form still sends one (0: the prize is what the player wins). The board is the contract's 24 default
 * amounts; a collapsed editor lets an admin change them first. The form is checked by the server's
 * schema as the admin types (each box amount with its own message); Create is disabled while
 * submitting and enabled again on failure (the API wrapper told why, and a field the server names
 * is marked); success toasts and goes to the game.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import Button from 'react-bootstrap/Button';
import Collapse from 'react-bootstrap/Collapse';
import Form from 'react-bootstrap/Form';
import { Controller } from 'react-hook-form';
import { BOX_COUNT, DEFAULT_AMOUNTS } from '@kickback/common/games/deal-or-no-deal';
import { createDealOrNoDealBody, MAX_BOX_AMOUNT } from '@kickback/common/http/deal-or-no-deal';
import type { UserOption } from '@kickback/common/http/users';
import { UserSelect } from '../../components/ui/user-select';
import { FieldError, setServerErrors, useZodForm } from '../../lib/forms';
import { useCreateDealOrNoDeal } from './api';
import { RecentDealOrNoDealGames } from './recent-games';
import { CREATED_STATE } from './created-toast';

/** The reward the contract's form sends although it shows no field for it. */
const FORM_REWARD = 0;

/** An empty number field is not 0: it stays NaN, so the schema says what to enter. */
const asNumber = (v: unknown) => (v === '' || v === null || v === undefined ? Number.NaN : Number(v));

const fieldNames = ['playerUserId', 'isPrivate', 'Amounts', ...DEFAULT_AMOUNTS.map((_, i) => `Amounts.${i}`)];

export default function CreateDealOrNoDealPage() {
  const navigate = useNavigate();
  const [player, setPlayer] = useState<UserOption | null>(null);
  const [editing, setEditing] = useState(false);
  const create = useCreateDealOrNoDeal();
  const {
    register,
    control,
    handleSubmit,
    reset,
    getValues,
    setError,
    formState: { errors, isSubmitting },
  } = useZodForm(createDealOrNoDealBody, {
    defaultValues: { playerUserId: '', isPrivate: false, reward: FORM_REWARD, Amounts: [...DEFAULT_AMOUNTS] },
  });

  const submit = handleSubmit(
    async (body) => {
      try {
        const { gameId } = await create.mutateAsync({ body });
        // The game page is outside the layout, so its own toast area says it (see CREATED_STATE).
        navigate(`/game/dealornodeal/${gameId}`, { state: CREATED_STATE });
      } catch (err) {
        setServerErrors(err, setError, fieldNames);
      }
    },
    // A refused box amount sits in the collapsed editor: open it so the message shows.
    (invalid) => {
      if (invalid.Amounts) setEditing(true);
    },
  );
  const amountError = (i: number) => errors.Amounts?.[i]?.message;

  return (
    <section className="container-xl py-4">
      <h1 className="h3 mb-1">Create Deal Or No Deal</h1>
      <p className="text-body-secondary mb-4">
        One player, 24 boxes. They keep one box, open the others round by round and answer the bank&apos;s offers. What
        they win is a prize in dollars the team delivers.
      </p>
      <Form className="kb-card" style={{ maxWidth: '40rem' }} onSubmit={(e) => void submit(e)} noValidate>
        <Form.Group className="mb-3">
          <Form.Label htmlFor="dond-player">Player 1</Form.Label>
          <Controller
            control={control}
            name="playerUserId"
            render={({ field }) => (
              <UserSelect
                inputId="dond-player"
                value={player}
                onChange={(option) => {
                  setPlayer(option);
                  field.onChange(option?.value ?? '');
                }}
              />
            )}
          />
          {errors.playerUserId?.message && (
            <div className="invalid-feedback d-block" id="dond-playerUserId-error" role="alert">
              {errors.playerUserId.message}
            </div>
          )}
        </Form.Group>
        <Form.Check type="switch" id="dond-private" className="mb-3" label="Private" {...register('isPrivate')} />
        <Button
          variant="link"
          className="px-0 mb-2"
          onClick={() => setEditing((v) => !v)}
          aria-expanded={editing}
          aria-controls="dond-amounts"
        >
          {editing ? 'Hide the board' : 'Change the board'}
        </Button>
        <Collapse in={editing}>
          <div id="dond-amounts">
            <p className="small text-body-secondary">
              {BOX_COUNT} amounts in dollars, each above 0 and at most {MAX_BOX_AMOUNT.toLocaleString('en-US')}, with at
              most 2 decimals. The boxes are shuffled when the game is created.
            </p>
            {errors.Amounts?.message && (
              <p className="small text-danger" role="alert">
                {errors.Amounts.message}
              </p>
            )}
            <div className="row row-cols-3 row-cols-sm-4 g-2 mb-3">
              {DEFAULT_AMOUNTS.map((_, i) => (
                <div className="col" key={i}>
                  <Form.Control
                    type="number"
                    step={0.01}
                    min={0.01}
                    max={MAX_BOX_AMOUNT}
                    inputMode="decimal"
                    size="sm"
                    aria-label={`Amount ${i + 1}`}
                    aria-invalid={Boolean(amountError(i))}
                    aria-describedby={`dond-amount-${i}-error`}
                    isInvalid={Boolean(amountError(i))}
                    {...register(`Amounts.${i}`, { setValueAs: asNumber })}
                  />
                  <FieldError id={`dond-amount-${i}-error`} message={amountError(i)} />
                </div>
              ))}
            </div>
            <Button
              variant="outline-secondary"
              size="sm"
              className="mb-3"
              onClick={() => reset({ ...getValues(), Amounts: [...DEFAULT_AMOUNTS] })}
            >
              Reset to the default board
            </Button>
          </div>
        </Collapse>
        <div>
          <Button type="submit" disabled={isSubmitting}>
            Create
          </Button>
        </div>
      </Form>
      <RecentDealOrNoDealGames />
    </section>
  );
}
