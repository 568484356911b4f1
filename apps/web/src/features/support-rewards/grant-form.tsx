/**
 * Admin → Support Rewards → "Grant a missed reward" (docs/features/support-rewards.md): pays a sub,
 * gifted subs, KICKs or a follow that Kick never delivered, to a linked Kick name or a site user, at
 * today's amounts. Checked as the admin types by the API's schema; the server's refusals land on
 * their field or as a toast; the rewards table refreshes.
 */
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import {
  supportGrantBody,
  supportRewardEndpoints,
  supportRewardKindNames,
  type SupportRewardKindName,
} from '@kickback/common/http/support-rewards';
import { FieldError, setServerErrors, useZodForm } from '../../lib/forms';
import { useEndpointMutation } from '../../lib/query';

const fields = ['user', 'kind', 'units', 'note'] as const;
const empty = { user: '', kind: 'gift' as SupportRewardKindName, units: '1', note: '' };

export function GrantForm() {
  const grant = useEndpointMutation(supportRewardEndpoints.grant, { invalidates: [supportRewardEndpoints.list] });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useZodForm(supportGrantBody, { defaultValues: empty });
  const submit = handleSubmit(async (body) => {
    try {
      const answer = await grant.mutateAsync({ body });
      toast.success(answer.message);
      reset(empty);
    } catch (err) {
      setServerErrors(err, setError, fields);
    }
  });
  const invalid = (name: (typeof fields)[number]) => ({
    isInvalid: Boolean(errors[name]),
    'aria-describedby': `kb-grant-${name}-error`,
  });
  return (
    <Form noValidate onSubmit={(e) => void submit(e)} className="kb-card p-3 row g-3 mx-0" aria-label="Grant a reward">
      <Form.Group className="col-sm-4" controlId="kb-grant-user">
        <Form.Label>Kick name or site user</Form.Label>
        <Form.Control placeholder="e.g. GenerousGifter" {...register('user')} {...invalid('user')} />
        <FieldError id="kb-grant-user-error" message={errors.user?.message} />
      </Form.Group>
      <Form.Group className="col-sm-4" controlId="kb-grant-kind">
        <Form.Label>Kind</Form.Label>
        <Form.Select {...register('kind')} {...invalid('kind')}>
          {Object.entries(supportRewardKindNames).map(([value, name]) => (
            <option key={value} value={value}>
              {name}
            </option>
          ))}
        </Form.Select>
        <FieldError id="kb-grant-kind-error" message={errors.kind?.message} />
      </Form.Group>
      <Form.Group className="col-sm-4" controlId="kb-grant-units">
        <Form.Label>Units (subs, KICKs)</Form.Label>
        <Form.Control inputMode="numeric" {...register('units')} {...invalid('units')} />
        <FieldError id="kb-grant-units-error" message={errors.units?.message} />
      </Form.Group>
      <Form.Group controlId="kb-grant-note">
        <Form.Label>Reason</Form.Label>
        <Form.Control
          maxLength={200}
          placeholder="Required, e.g. Kick never sent the gift event"
          {...register('note')}
          {...invalid('note')}
        />
        <FieldError id="kb-grant-note-error" message={errors.note?.message} />
      </Form.Group>
      <div>
        <Button type="submit" disabled={isSubmitting}>
          Grant
        </Button>
      </div>
    </Form>
  );
}
