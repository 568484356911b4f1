/**
 * Admin: the 18+ gate's on/off switch and the text visitors confirm (site configuration), checked by
 * the API's schema as the admin types; the text carries the server's limit with a counter, and a
 * field the server refuses is marked on that field.
 */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useWatch } from 'react-hook-form';
import { toast } from 'react-toastify';
import { AGE_GATE_TEXT_MAX, ageGateBody, siteEndpoints } from '@kickback/common/http/site';
import { useSite } from '../../shared/site-context';
import { CharCounter, FieldError, setServerErrors, useZodForm } from '../../lib/forms';
import { useEndpointMutation } from '../../lib/query';

export default function AdminAgeGatePage() {
  const site = useSite();
  const [saved, setSaved] = useState(site.ageGate);
  const {
    register,
    handleSubmit,
    control,
    reset,
    setError,
    formState: { errors, isDirty, isSubmitting },
  } = useZodForm(ageGateBody, { defaultValues: saved });
  // The site's configuration (read once by SiteProvider) carries the gate: it refetches.
  const save = useEndpointMutation(siteEndpoints.updateAgeGate, { invalidates: [siteEndpoints.config] });
  const text = useWatch({ control, name: 'text' }) ?? '';
  const error = errors.text?.message;

  const submit = handleSubmit(async (body) => {
    try {
      const data = await save.mutateAsync({ body });
      toast.success(data.message);
      setSaved(data.ageGate);
      reset(data.ageGate);
    } catch (err) {
      setServerErrors(err, setError, ['enabled', 'text']);
    }
  });

  return (
    <div className="container py-4" style={{ maxWidth: 720 }}>
      <h1 className="h3">18+ Gate</h1>
      <p className="text-body-secondary">
        First-time visitors confirm this before they can use the site (OBS overlays are never gated). It is{' '}
        <strong>{saved.enabled ? 'on' : 'off'}</strong> now.
      </p>
      <Form noValidate onSubmit={(e) => void submit(e)} className="kb-card p-3">
        <Form.Check
          type="switch"
          id="kb-age-gate-enabled"
          label="Ask visitors to confirm they are 18 or older"
          {...register('enabled')}
        />
        <Form.Group className="mt-3" controlId="kb-age-gate-text">
          <Form.Label>Text visitors confirm</Form.Label>
          <Form.Control
            as="textarea"
            rows={4}
            maxLength={AGE_GATE_TEXT_MAX}
            isInvalid={Boolean(error)}
            aria-invalid={Boolean(error)}
            aria-describedby="kb-age-gate-error kb-age-gate-count"
            {...register('text')}
          />
          <FieldError id="kb-age-gate-error" message={error} />
          <CharCounter id="kb-age-gate-count" length={text.length} max={AGE_GATE_TEXT_MAX} />
        </Form.Group>
        <Button type="submit" className="mt-3" disabled={isSubmitting || !isDirty}>
          Save
        </Button>
      </Form>
    </div>
  );
}
