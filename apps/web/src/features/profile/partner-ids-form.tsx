import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { toast } from 'react-toastify';
import type { AuthUser } from '@kickback/common/http/auth';
import {
  PARTNER_ID_MAX_LENGTH,
  partnerIdFields,
  partnerIdProblem,
  type PartnerIdKey,
  type PartnerIdsBody,
} from '@kickback/common/http/accounts';
import { messages } from '@kickback/common/messages';
import { useAuth } from '../../app/auth/auth-context';
import { ApiError } from '../../lib/api';
import { useMyPartnerLinks } from '../../lib/partner-links';
import { PartnerLinkStatus } from './partner-link-status';
import { savePartnerIds } from './api';

type Values = Record<PartnerIdKey, string>;

function valuesOf(user: AuthUser): Values {
  return Object.fromEntries(partnerIdFields.map((f) => [f.key, user[f.userKey] ?? ''])) as Values;
}

const placeholders: Record<PartnerIdKey, string> = {
  RoobetName: 'Your Roobet username',
  ClashId: 'Your Clash.gg id',
  RustMagicId: 'Your RustMagic id',
  CasesId: 'Your Cases.gg id',
};

/** The wagering-site username and partner ids, saved together (`POST /api/User/ids`). */
export function PartnerIdsForm({ user }: { user: AuthUser }) {
  const { refreshUser } = useAuth();
  const [values, setValues] = useState<Values>(() => valuesOf(user));
  const [pending, setPending] = useState(false);
  const [taken, setTaken] = useState(false);
  const links = useMyPartnerLinks();
  const saved = valuesOf(user);
  const problems = Object.fromEntries(
    partnerIdFields.map((f) => [f.key, partnerIdProblem(f.label, values[f.key].trim())]),
  ) as Record<PartnerIdKey, string | null>;
  const dirty = partnerIdFields.some((f) => values[f.key].trim() !== saved[f.key]);
  const invalid = Object.values(problems).some(Boolean);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!dirty || invalid) return;
    setPending(true);
    setTaken(false);
    try {
      const body: PartnerIdsBody = Object.fromEntries(partnerIdFields.map((f) => [f.key, values[f.key].trim()]));
      await savePartnerIds(body);
      toast.success(messages.settingsUpdated);
      const fresh = await refreshUser();
      if (fresh) setValues(valuesOf(fresh));
      links.reload();
    } catch (err) {
      // The API wrapper already showed the server's message; a taken id can be contested.
      if (err instanceof ApiError && err.status === 409) setTaken(true);
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <Form onSubmit={(e) => void submit(e)} noValidate>
        <div className="row g-3">
          {partnerIdFields.map((f) => (
            <Form.Group
              key={f.key}
              controlId={`kb-partner-${f.key}`}
              className={f.key === 'RoobetName' ? 'col-12' : 'col-sm-4'}
            >
              <Form.Label className="small mb-1">{f.label}</Form.Label>
              <Form.Control
                value={values[f.key]}
                placeholder={placeholders[f.key]}
                maxLength={PARTNER_ID_MAX_LENGTH + 16}
                autoComplete="off"
                spellCheck={false}
                isInvalid={Boolean(problems[f.key])}
                onChange={(e) => setValues((v) => ({ ...v, [f.key]: e.target.value }))}
              />
              <Form.Control.Feedback type="invalid">{problems[f.key]}</Form.Control.Feedback>
            </Form.Group>
          ))}
        </div>
        <div className="d-flex align-items-center gap-3 mt-3">
          <Button type="submit" variant="primary" disabled={pending || !dirty || invalid}>
            {pending && <Spinner animation="border" size="sm" className="me-2" aria-hidden />}
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
      <PartnerLinkStatus data={links.data} reload={links.reload} />
    </>
  );
}
