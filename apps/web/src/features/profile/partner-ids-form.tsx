/**
 * The wagering-site username and partner ids, saved together (`POST /api/User/ids`). Each id is
 * checked by its own rule from packages/common as the user types (the server checks the same), and
 * an id the server refuses is marked on its field.
 */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { toast } from 'react-toastify';
import type { AuthUser } from '@kickback/common/http/auth';
import {
  PARTNER_ID_MAX_LENGTH,
  partnerIdFields,
  partnerIdsForm,
  type PartnerIdKey,
  type PartnerIdsFormValues,
} from '@kickback/common/http/accounts';
import { messages } from '@kickback/common/messages';
import { useAuth } from '../../shared/auth/auth-context';
import { ApiError } from '../../lib/api';
import { FieldError, setServerErrors, useZodForm } from '../../lib/forms';
import { useMyPartnerLinks } from '../../lib/partner-links';
import { PartnerLinkStatus, type RefusedId } from './partner-link-status';
import { useSavePartnerIds } from './api';

type Values = Record<PartnerIdKey, string>;

function valuesOf(user: AuthUser): Values {
  return Object.fromEntries(partnerIdFields.map((f) => [f.key, user[f.userKey] ?? ''])) as Values;
}

const placeholders: Record<PartnerIdKey, string> = {
  RoobetName: 'Your Roobet username',
  ClashId: 'Your Clash.gg user number or name',
  RustMagicId: 'Your RustMagic id',
  CasesId: 'Your Cases.gg user number or name',
};

const keys = partnerIdFields.map((f) => f.key);

/** The field a 409 names (the server puts a taken id's message on its field) and the value sent for it. */
function refusedIn(err: ApiError, sent: Partial<Record<PartnerIdKey, string | null>>): RefusedId | null {
  const field = err.fields.map((f) => f.path).find((p): p is PartnerIdKey => (keys as string[]).includes(p));
  return field ? { field, value: (sent[field] ?? '').trim() } : null;
}

export function PartnerIdsForm({ user }: { user: AuthUser }) {
  const { refreshUser } = useAuth();
  const [taken, setTaken] = useState(false);
  /** The id the server just refused because another account holds it (the contest form starts with it). */
  const [refused, setRefused] = useState<RefusedId | null>(null);
  const links = useMyPartnerLinks();
  const save = useSavePartnerIds();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty, isSubmitting },
  } = useZodForm(partnerIdsForm, { defaultValues: valuesOf(user) satisfies PartnerIdsFormValues });

  const submit = handleSubmit(async (body) => {
    setTaken(false);
    try {
      await save.mutateAsync({ body });
      toast.success(messages.settingsUpdated);
      const fresh = await refreshUser();
      reset(fresh ? valuesOf(fresh) : body);
    } catch (err) {
      // The API wrapper already showed the server's message; a taken id can be contested.
      if (err instanceof ApiError && err.status === 409) {
        setTaken(true);
        setRefused(refusedIn(err, body));
      }
      setServerErrors(err, setError, keys);
    }
  });

  return (
    <>
      <Form onSubmit={(e) => void submit(e)} noValidate>
        <div className="row g-3">
          {partnerIdFields.map((f) => {
            const message = errors[f.key]?.message;
            return (
              <Form.Group
                key={f.key}
                controlId={`kb-partner-${f.key}`}
                className={f.key === 'RoobetName' ? 'col-12' : 'col-sm-4'}
              >
                <Form.Label className="small mb-1">{f.label}</Form.Label>
                <Form.Control
                  {...register(f.key)}
                  placeholder={placeholders[f.key]}
                  maxLength={PARTNER_ID_MAX_LENGTH}
                  autoComplete="off"
                  spellCheck={false}
                  isInvalid={Boolean(message)}
                  aria-invalid={Boolean(message)}
                  aria-describedby={`kb-partner-${f.key}-error`}
                />
                <FieldError id={`kb-partner-${f.key}-error`} message={message} />
              </Form.Group>
            );
          })}
        </div>
        <div className="d-flex align-items-center gap-3 mt-3">
          <Button type="submit" variant="primary" disabled={isSubmitting || !isDirty}>
            {isSubmitting && <Spinner animation="border" size="sm" className="me-2" aria-hidden />}
            Save
          </Button>
          <span className="small text-body-secondary">Leave a field empty to unlink that site.</span>
        </div>
        {taken && (
          <p className="small text-warning mt-2 mb-0" role="status">
            That id is held by another account. If it is yours, contest it below.
          </p>
        )}
      </Form>
      {/* Outside the form: the contest form is a form of its own. */}
      <PartnerLinkStatus data={links.data} refused={refused} />
    </>
  );
}
