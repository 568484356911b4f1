/**
 * Admin → Slot calls → Rules: one open call per viewer (or N), the cooldown, the cost, linked-only
 * and subs-only, unknown slots accepted (flagged) or refused, the blacklist (one name a line, a
 * slot or a provider), the queue's length, and the hunt payout. Checked by the API's own schema.
 */
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import { adminSlotCallEndpoints, slotCallRulesBody } from '@kickback/common/http/slot-calls';
import type { SlotCallRulesView, SlotCallsState } from '@kickback/common/hubs/slot-calls';
import { FieldError, setServerErrors, useZodForm } from '../../lib/forms';
import { useEndpointMutation } from '../../lib/query';

const asNumber = (v: unknown) => (v === '' || v === null || v === undefined ? Number.NaN : Number(v));
const asLines = (v: unknown) =>
  Array.isArray(v)
    ? v
    : String(v ?? '')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '');

const fields = [
  'maxPerViewer',
  'cooldownSeconds',
  'cost',
  'linkedOnly',
  'subsOnly',
  'maxQueue',
  'unknownSlots',
  'blacklist',
  'payoutMultiplier',
  'payoutPoints',
] as const;

export function RulesForm({ rules, onSaved }: { rules: SlotCallRulesView; onSaved(state: SlotCallsState): void }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useZodForm(slotCallRulesBody, {
    // The textarea holds the list one name a line; asLines turns it back into the list.
    defaultValues: { ...rules, blacklist: rules.blacklist.join('\n') as unknown as string[] },
  });
  const save = useEndpointMutation(adminSlotCallEndpoints.rules, {
    onSuccess: (answer) => (toast.success(answer.message), onSaved(answer.state)),
  });
  const submit = handleSubmit(async (body) => {
    try {
      await save.mutateAsync({ body });
    } catch (err) {
      setServerErrors(err, setError, fields);
    }
  });
  const number = (name: (typeof fields)[number], label: string, props: Record<string, unknown>) => (
    <Form.Group className="col-sm-6 col-lg-4" controlId={`calls-${name}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type="number"
        {...props}
        {...register(name, { setValueAs: asNumber })}
        isInvalid={Boolean(errors[name])}
        aria-invalid={Boolean(errors[name])}
        aria-describedby={`calls-${name}-error`}
      />
      <FieldError id={`calls-${name}-error`} message={errors[name]?.message} />
    </Form.Group>
  );
  return (
    <Form className="kb-card" onSubmit={(e) => void submit(e)} aria-label="Slot call rules" noValidate>
      <h2 className="h5">Rules</h2>
      <div className="row g-2">
        {number('maxPerViewer', 'Open calls per viewer', { min: 1, max: 100, step: 1 })}
        {number('cooldownSeconds', 'Cooldown (seconds)', { min: 0, max: 86400, step: 1 })}
        {number('maxQueue', 'Maximum queue length', { min: 1, max: 1000, step: 1 })}
        {number('cost', 'Call cost (points, 0 = free)', { min: 0, step: 0.01, inputMode: 'decimal' })}
        {number('payoutMultiplier', 'Hunt payout from (x)', { min: 0.01, step: 0.01, inputMode: 'decimal' })}
        {number('payoutPoints', 'Hunt payout (points, 0 = none)', { min: 0, step: 0.01, inputMode: 'decimal' })}
        <Form.Group className="col-sm-6 col-lg-4" controlId="calls-unknownSlots">
          <Form.Label>Slots not in the catalogue</Form.Label>
          <Form.Select {...register('unknownSlots')}>
            <option value="accept">Accept as typed (flagged)</option>
            <option value="refuse">Refuse</option>
          </Form.Select>
        </Form.Group>
        <div className="col-sm-6 col-lg-4 d-flex flex-column justify-content-end">
          <Form.Check
            id="calls-linkedOnly"
            type="switch"
            label="Linked Kick accounts only"
            {...register('linkedOnly')}
          />
          <Form.Check id="calls-subsOnly" type="switch" label="Subscribers only" {...register('subsOnly')} />
        </div>
        <Form.Group className="col-12" controlId="calls-blacklist">
          <Form.Label>Blacklist (slots or providers, one a line)</Form.Label>
          <Form.Control
            as="textarea"
            rows={3}
            {...register('blacklist', { setValueAs: asLines })}
            isInvalid={Boolean(errors.blacklist)}
            aria-describedby="calls-blacklist-error"
          />
          <FieldError
            id="calls-blacklist-error"
            message={
              errors.blacklist?.message ??
              (Array.isArray(errors.blacklist) ? errors.blacklist.find(Boolean)?.message : undefined)
            }
          />
        </Form.Group>
      </div>
      <Button type="submit" className="mt-3" disabled={isSubmitting}>
        Save rules
      </Button>
    </Form>
  );
}
