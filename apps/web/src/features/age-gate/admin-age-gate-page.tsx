/** Admin: the 18+ gate's on/off switch and the text visitors confirm (site configuration). */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'react-toastify';
import { AGE_GATE_TEXT_MAX, ageGateBody, siteEndpoints, type AgeGateBody } from '@kickback/common/http/site';
import { useSite } from '../../app/site-context';
import { useEndpointMutation } from '../../lib/query';

export default function AdminAgeGatePage() {
  const site = useSite();
  const [saved, setSaved] = useState(site.ageGate);
  const form = useForm<AgeGateBody>({
    resolver: zodResolver(ageGateBody),
    mode: 'onChange',
    defaultValues: saved,
  });
  const save = useEndpointMutation(siteEndpoints.updateAgeGate, {
    onSuccess: (data) => {
      toast.success(data.message);
      setSaved(data.ageGate);
      form.reset(data.ageGate);
    },
  });
  const text = useWatch({ control: form.control, name: 'text' }) ?? '';
  const error = form.formState.errors.text?.message;

  return (
    <div className="container py-4" style={{ maxWidth: 720 }}>
      <h1 className="h3">18+ Gate</h1>
      <p className="text-body-secondary">
        First-time visitors confirm this before they can use the site (OBS overlays are never gated). It is{' '}
        <strong>{saved.enabled ? 'on' : 'off'}</strong> now.
      </p>
      <Form noValidate onSubmit={form.handleSubmit((body) => save.mutate({ body }))} className="kb-card p-3">
        <Form.Check
          type="switch"
          id="kb-age-gate-enabled"
          label="Ask visitors to confirm they are 18 or older"
          {...form.register('enabled')}
        />
        <Form.Group className="mt-3" controlId="kb-age-gate-text">
          <Form.Label>Text visitors confirm</Form.Label>
          <Form.Control
            as="textarea"
            rows={4}
            maxLength={AGE_GATE_TEXT_MAX}
            isInvalid={!!error}
            aria-describedby="kb-age-gate-count"
            {...form.register('text')}
          />
          <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
          <Form.Text id="kb-age-gate-count">
            {text.length} / {AGE_GATE_TEXT_MAX} characters
          </Form.Text>
        </Form.Group>
        <Button type="submit" className="mt-3" disabled={save.isPending || !form.formState.isDirty}>
          Save
        </Button>
      </Form>
    </div>
  );
}
