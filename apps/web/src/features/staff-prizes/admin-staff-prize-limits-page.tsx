/**
 * Admin: the staff prize limits (docs/features/staff-prize-limits.md) — the most a prize of an event
 * a Moderator runs may pay through the ledger, per event and per UTC day, and what such events paid
 * today. Above them (or to a staff account) a prize waits in Fulfilment for an Admin's approval.
 */
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { staffPrizeEndpoints, staffPrizeLimitsBody, type StaffPrizeLimits } from '@kickback/common/http/staff-prizes';
import { FieldError, setServerErrors, useZodForm } from '../../lib/forms';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';

const points = (n: number) => `${n.toLocaleString('en-US')} points`;

function LimitsForm({ limits }: { limits: StaffPrizeLimits }) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty, isSubmitting },
  } = useZodForm(staffPrizeLimitsBody, {
    defaultValues: { perEvent: String(limits.perEvent), perDay: String(limits.perDay) },
  });
  const save = useEndpointMutation(staffPrizeEndpoints.update, { invalidates: [staffPrizeEndpoints.get] });

  const submit = handleSubmit(async (body) => {
    try {
      const data = await save.mutateAsync({ body });
      toast.success(data.message);
      reset({ perEvent: String(data.limits.perEvent), perDay: String(data.limits.perDay) });
    } catch (err) {
      setServerErrors(err, setError, ['perEvent', 'perDay']);
    }
  });

  return (
    <Form noValidate onSubmit={(e) => void submit(e)} className="kb-card p-3">
      <Form.Group controlId="kb-staff-prize-per-event">
        <Form.Label>Most one event may pay (points)</Form.Label>
        <Form.Control
          inputMode="decimal"
          isInvalid={Boolean(errors.perEvent)}
          aria-describedby="kb-staff-prize-per-event-error"
          {...register('perEvent')}
        />
        <FieldError id="kb-staff-prize-per-event-error" message={errors.perEvent?.message} />
        <Form.Text>All the prizes of one game, giveaway roll or bonus hunt together.</Form.Text>
      </Form.Group>
      <Form.Group className="mt-3" controlId="kb-staff-prize-per-day">
        <Form.Label>Most all such events may pay in a day (points, UTC)</Form.Label>
        <Form.Control
          inputMode="decimal"
          isInvalid={Boolean(errors.perDay)}
          aria-describedby="kb-staff-prize-per-day-error"
          {...register('perDay')}
        />
        <FieldError id="kb-staff-prize-per-day-error" message={errors.perDay?.message} />
      </Form.Group>
      <Button type="submit" className="mt-3" disabled={isSubmitting || !isDirty}>
        Save
      </Button>
    </Form>
  );
}

export default function AdminStaffPrizeLimitsPage() {
  const { data } = useEndpointQuery(staffPrizeEndpoints.get);
  return (
    <div className="container py-4" style={{ maxWidth: 720 }}>
      <h1 className="h3">Staff Prize Limits</h1>
      <p className="text-body-secondary">
        Prizes of games, giveaway rolls and bonus hunts a Moderator sets or runs are paid at once only up to these
        limits, and never to a staff account. Anything more waits in <Link to="/admin/fulfilment">Fulfilment</Link>{' '}
        until an Admin approves (pays) or rejects it. Events an Admin runs are not limited.
      </p>
      {data && (
        <>
          <p>
            Paid today by Moderator-run events: <strong>{points(data.paidToday)}</strong> of {points(data.perDay)}.
            {data.updatedBy && (
              <span className="text-body-secondary">
                {' '}
                Last changed by {data.updatedBy}, {new Date(data.updatedAt).toLocaleString()}.
              </span>
            )}
          </p>
          <LimitsForm key={`${data.perEvent}-${data.perDay}`} limits={data} />
        </>
      )}
    </div>
  );
}
