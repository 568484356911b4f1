/**
 * The admin's forms: start a hunt, and add a bonus (Enter adds it and returns to the slot field).
 * Both check every field by the API's own schema as the runner types, and a refusal's field errors
 * land on their fields.
 */
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { FieldErrors } from 'react-hook-form';
import { toast } from 'react-toastify';
import { addBonusBody, HUNT_MAX_AMOUNT, huntEndpoints, startHuntBody } from '@kickback/common/http/hunt';
import type { HuntView } from '@kickback/common/hubs/hunt';
import { FieldError, setServerErrors, useZodForm } from '../../lib/forms';
import { useEndpointMutation } from '../../lib/query';

/**
 * An empty amount is not 0: it reads as NaN, so the schema says what to enter. Required amounts have
 * no default value (NaN written into a number field makes the browser warn in the console); the
 * empty field reads as NaN through this.
 */
const asAmount = (v: unknown) => (v === '' || v === null || v === undefined ? Number.NaN : Number(v));
/** An optional amount: empty means the schema's default. */
const asOptionalAmount = (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v));

const amountLimits = { type: 'number', step: 0.01, min: 0, max: HUNT_MAX_AMOUNT, inputMode: 'decimal' } as const;

/** Bootstrap's invalid look, the ARIA state and the message's id for one field. */
function invalidProps(errors: FieldErrors, name: string, prefix: string) {
  return {
    isInvalid: Boolean(errors[name]),
    'aria-invalid': Boolean(errors[name]),
    'aria-describedby': `${prefix}-${name}-error`,
  };
}

const startFields = ['name', 'startCost', 'guessPrize'] as const;

export function StartHuntForm({ onStarted }: { onStarted(view: HuntView): void }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useZodForm(startHuntBody, { defaultValues: { name: '', guessPrize: 0 } });
  // Callbacks on the mutation itself: the form is replaced by the hunt as soon as the live state arrives.
  const start = useEndpointMutation(huntEndpoints.start, {
    invalidates: [huntEndpoints.list],
    onSuccess: (view) => {
      toast.success('Hunt started: guessing is open.');
      onStarted(view);
    },
  });
  const submit = handleSubmit(async (body) => {
    try {
      await start.mutateAsync({ body });
    } catch (err) {
      setServerErrors(err, setError, startFields);
    }
  });
  return (
    <Form className="kb-card" onSubmit={(e) => void submit(e)} aria-label="Start a hunt" noValidate>
      <h2 className="h5">Start a hunt</h2>
      <div className="row g-2 align-items-start">
        <Form.Group className="col-md-5" controlId="hunt-name">
          <Form.Label>Name</Form.Label>
          <Form.Control maxLength={80} autoFocus {...register('name')} {...invalidProps(errors, 'name', 'hunt')} />
          <FieldError id="hunt-name-error" message={errors.name?.message} />
        </Form.Group>
        <Form.Group className="col-md-3" controlId="hunt-start-cost">
          <Form.Label>Start cost ($)</Form.Label>
          <Form.Control
            {...amountLimits}
            {...register('startCost', { setValueAs: asAmount })}
            {...invalidProps(errors, 'startCost', 'hunt')}
          />
          <FieldError id="hunt-startCost-error" message={errors.startCost?.message} />
        </Form.Group>
        <Form.Group className="col-md-2" controlId="hunt-guess-prize">
          <Form.Label>Guess prize (points)</Form.Label>
          <Form.Control
            {...amountLimits}
            {...register('guessPrize', { setValueAs: asAmount })}
            {...invalidProps(errors, 'guessPrize', 'hunt')}
          />
          <FieldError id="hunt-guessPrize-error" message={errors.guessPrize?.message} />
        </Form.Group>
        <div className="col-md-2 kb-form-button-cell">
          <Button type="submit" className="w-100" disabled={isSubmitting}>
            Start
          </Button>
        </div>
      </div>
    </Form>
  );
}

const bonusFields = ['slot', 'provider', 'bet', 'cost'] as const;

export function AddBonusForm({ hunt, onChanged }: { hunt: HuntView; onChanged(view: HuntView): void }) {
  const {
    register,
    handleSubmit,
    setError,
    resetField,
    setFocus,
    formState: { errors, isSubmitting },
  } = useZodForm(addBonusBody, { defaultValues: { slot: '', provider: '' } });
  const add = useEndpointMutation(huntEndpoints.addBonus);
  const submit = handleSubmit(async (body) => {
    try {
      const view = await add.mutateAsync({ params: { huntId: hunt.id }, body });
      // Provider and bet often repeat: keep them; the next slot name is typed at once.
      resetField('slot');
      resetField('cost');
      onChanged(view);
      setFocus('slot');
    } catch (err) {
      setServerErrors(err, setError, bonusFields);
    }
  });
  return (
    <Form className="kb-card mb-3" onSubmit={(e) => void submit(e)} aria-label="Add a bonus" noValidate>
      <h2 className="h6">Add a bonus</h2>
      <div className="row g-2 align-items-start">
        <Form.Group className="col-md" controlId="bonus-slot">
          <Form.Label>Slot</Form.Label>
          <Form.Control maxLength={80} {...register('slot')} {...invalidProps(errors, 'slot', 'bonus')} />
          <FieldError id="bonus-slot-error" message={errors.slot?.message} />
        </Form.Group>
        <Form.Group className="col-md-3" controlId="bonus-provider">
          <Form.Label>Provider</Form.Label>
          <Form.Control maxLength={60} {...register('provider')} {...invalidProps(errors, 'provider', 'bonus')} />
          <FieldError id="bonus-provider-error" message={errors.provider?.message} />
        </Form.Group>
        <Form.Group className="col-md-2" controlId="bonus-bet">
          <Form.Label>Bet ($)</Form.Label>
          <Form.Control
            {...amountLimits}
            min={0.01}
            {...register('bet', { setValueAs: asAmount })}
            {...invalidProps(errors, 'bet', 'bonus')}
          />
          <FieldError id="bonus-bet-error" message={errors.bet?.message} />
        </Form.Group>
        <Form.Group className="col-md-2" controlId="bonus-cost">
          <Form.Label>Own cost ($)</Form.Label>
          <Form.Control
            {...amountLimits}
            placeholder="0"
            {...register('cost', { setValueAs: asOptionalAmount })}
            {...invalidProps(errors, 'cost', 'bonus')}
          />
          <FieldError id="bonus-cost-error" message={errors.cost?.message} />
        </Form.Group>
        {/* Its own width (not a twelfth of the row): "Add" keeps the button's padding at any width. */}
        <div className="col-md-auto kb-form-button-cell">
          <Button type="submit" className="w-100 px-4" disabled={isSubmitting}>
            Add
          </Button>
        </div>
      </div>
    </Form>
  );
}
