/**
 * Admin → Settings → Integrations (docs/features/integration-settings.md): the Kick, Discord and
 * partner keys. A secret is never shown back, only "set · last 4"; a field the server environment
 * sets is read-only here. A field left empty keeps its value; Clear removes a saved one. The server
 * checks every value (a refused one is marked on its field) and the adapters use it at once.
 */
import { useForm } from 'react-hook-form';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { toast } from 'react-toastify';
import {
  integrationSettingGroups,
  integrationSettingsEndpoints,
  type IntegrationSettingView,
} from '@kickback/common/http/integration-settings';
import { integrationEndpoints } from '@kickback/common/http/integrations';
import { FieldError, setServerErrors } from '../../lib/forms';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';

type Values = Record<string, string>;

const UNREADABLE = "Saved, but it does not open with this server's encryption key, so it is not used";

function state(field: IntegrationSettingView): string {
  if (field.source === 'env')
    return `Set by the server environment${field.secret && field.shown ? ` (${field.shown})` : ''}`;
  if (field.source === 'none') return 'Not set';
  if (field.source === 'unreadable') return UNREADABLE;
  return field.shown ?? 'set';
}

export default function IntegrationSettingsSection() {
  const view = useEndpointQuery(integrationSettingsEndpoints.get, {}, { staleTime: 0 });
  const save = useEndpointMutation(integrationSettingsEndpoints.update, {
    invalidates: [integrationSettingsEndpoints.get, integrationEndpoints.goLive, integrationEndpoints.overview],
  });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<Values>({ defaultValues: {} });

  const send = async (body: Record<string, string | null>) => {
    try {
      const data = await save.mutateAsync({ body });
      toast.success(data.message);
      // Typed values are not kept in the form once saved (a secret is never shown again).
      reset(Object.fromEntries(data.fields.map((f) => [f.name, ''])));
    } catch (err) {
      setServerErrors(err, setError, (path) => path);
    }
  };
  const submit = handleSubmit(async (values) => {
    const body = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ''));
    await send(body);
  });

  const data = view.data;
  return (
    <section className="kb-card p-3 mb-3" aria-labelledby="kb-settings-integrations">
      <h2 className="h5" id="kb-settings-integrations">
        Integrations
      </h2>
      <p className="text-body-secondary">
        Keys for Kick, Discord and the partner sites. Saved values are encrypted and never shown again (only their last
        4 characters); the site uses a change at once, no restart. A value set in the server&apos;s environment wins and
        cannot be changed here.
      </p>
      {view.isPending && <Spinner animation="border" role="status" aria-label="Loading the integration settings" />}
      {data?.fields.some((f) => f.source === 'unreadable') && (
        <div className="alert alert-danger" role="alert">
          Some saved keys do not open with this server&apos;s encryption key ({data.secretKey.where}): it is not the key
          they were saved with (a changed or lost SECRET_KEY, or a database restored on another server). Put the old key
          back and restart, or enter those keys again.
        </div>
      )}
      {data && (
        <Form noValidate onSubmit={(e) => void submit(e)}>
          {integrationSettingGroups.map((group) => (
            <fieldset key={group} className="mb-3">
              <legend className="h6">{group}</legend>
              <div className="row g-3">
                {data.fields
                  .filter((f) => f.group === group)
                  .map((f) => {
                    const id = `kb-int-${f.name}`;
                    const error = errors[f.name];
                    return (
                      <Form.Group className="col-md-6" controlId={id} key={f.name} data-setting={f.name}>
                        <Form.Label>{f.label}</Form.Label>
                        <div className="d-flex gap-2">
                          <Form.Control
                            type={f.secret ? 'password' : 'text'}
                            autoComplete="off"
                            disabled={f.source === 'env'}
                            placeholder={f.source === 'site' || f.source === 'env' ? 'Leave empty to keep' : ''}
                            isInvalid={Boolean(error)}
                            aria-invalid={Boolean(error)}
                            aria-describedby={`${id}-state ${id}-error`}
                            {...register(f.name)}
                          />
                          {(f.source === 'site' || f.source === 'unreadable') && (
                            <Button
                              variant="outline-secondary"
                              aria-label={`Clear ${f.label}`}
                              disabled={save.isPending}
                              onClick={() => void send({ [f.name]: null })}
                            >
                              Clear
                            </Button>
                          )}
                        </div>
                        <FieldError id={`${id}-error`} message={error?.message} />
                        <Form.Text id={`${id}-state`} className="text-body-secondary kb-int-state">
                          {state(f)}
                        </Form.Text>
                      </Form.Group>
                    );
                  })}
              </div>
            </fieldset>
          ))}
          <p className="small text-body-secondary">
            Encryption key: {data.secretKey.source === 'SECRET_KEY' ? 'SECRET_KEY, ' : 'generated, '}
            kept in {data.secretKey.where}. Keep a copy with your backups.{' '}
            {data.otherKeys.map((k) => `${k.name}: ${k.state}.`).join(' ')}
          </p>
          <Button type="submit" disabled={isSubmitting || !isDirty}>
            Save integrations
          </Button>
        </Form>
      )}
    </section>
  );
}
