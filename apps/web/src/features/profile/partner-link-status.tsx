/**
 * Under the partner ids on the profile: each link's state — verified, or pending verification
 * with the points held for it and how to prove it (the one-time code to put into the partner-site
 * name, or an admin's review for Roobet) — a way to contest an id someone else holds (prefilled
 * with the id the partner-ids form was just refused), and how the admins decided each contest.
 */
import { useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import { partnerIdFields, type PartnerIdKey } from '@kickback/common/http/accounts';
import type { MyDispute, MyPartnerLink, MyPartnerLinks } from '@kickback/common/http/partner-links';
import { formatAmount } from '../../lib/format';
import { LinkStateBadge } from '../../components/ui/link-state-badge';
import { useContestPartnerId, useRenewProofCode } from './api';

const siteOf: Record<PartnerIdKey, string> = {
  RoobetName: 'Roobet',
  ClashId: 'Clash.gg',
  RustMagicId: 'RustMagic',
  CasesId: 'Cases.gg',
};

function LinkLine({ link }: { link: MyPartnerLink }) {
  const renewCode = useRenewProofCode();
  const busy = renewCode.isPending;
  const renew = () => renewCode.mutateAsync({ body: { field: link.field } }).catch(() => undefined); // the API wrapper says why
  return (
    <li className="kb-link-state" data-testid={`partner-link-${link.field}`}>
      <div className="d-flex flex-wrap align-items-center gap-2">
        <strong>{link.label}</strong>
        <code>{link.value}</code>
        <LinkStateBadge state={link.state} />
        {link.state === 'claimed' && link.heldPoints > 0 && (
          <span className="small">{formatAmount(link.heldPoints)} points held until verified</span>
        )}
      </div>
      {link.state === 'claimed' && link.proof === 'code' && link.proofCode && (
        <p className="small mb-0 mt-1">
          Put <code className="kb-proof-code">{link.proofCode}</code> anywhere in your {siteOf[link.field]} name and
          wager under the code; the next leaderboard update verifies it (you can remove it afterwards).{' '}
          <Button variant="link" size="sm" className="p-0 align-baseline" disabled={busy} onClick={() => void renew()}>
            New code
          </Button>
        </p>
      )}
      {link.state === 'claimed' && link.proof === 'admin' && (
        <p className="small mb-0 mt-1 text-body-secondary">
          Roobet names cannot be changed, so an admin checks this one. Points and the Roobet daily reward start once it
          is verified.
        </p>
      )}
      {link.state === 'rejected' && link.reason && (
        <p className="small mb-0 mt-1 text-body-secondary">Reason: {link.reason}</p>
      )}
    </li>
  );
}

/** An id the server refused because another account holds it: what the contest form starts with. */
export interface RefusedId {
  field: PartnerIdKey;
  value: string;
}

function ContestForm({ start, onDone }: { start: RefusedId | null; onDone(): void }) {
  const [field, setField] = useState<PartnerIdKey>(start?.field ?? 'ClashId');
  const [value, setValue] = useState(start?.value ?? '');
  const [note, setNote] = useState('');
  const contest = useContestPartnerId();
  const busy = contest.isPending;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!value.trim()) return;
    try {
      const { message } = await contest.mutateAsync({ body: { field, value: value.trim(), note: note.trim() } });
      toast.success(message);
      setValue('');
      setNote('');
      onDone();
    } catch {
      // shown by the API wrapper
    }
  };
  return (
    <Form onSubmit={(e) => void submit(e)} className="mt-2" aria-label="Contest a partner id">
      <div className="row g-2 align-items-end">
        <Form.Group className="col-sm-3" controlId="kb-contest-field">
          <Form.Label className="small mb-1">Site</Form.Label>
          <Form.Select value={field} onChange={(e) => setField(e.target.value as PartnerIdKey)}>
            {partnerIdFields.map((f) => (
              <option key={f.key} value={f.key}>
                {f.label}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group className="col-sm-4" controlId="kb-contest-value">
          <Form.Label className="small mb-1">Your id there</Form.Label>
          <Form.Control value={value} maxLength={64} onChange={(e) => setValue(e.target.value)} />
        </Form.Group>
        <Form.Group className="col-sm-5" controlId="kb-contest-note">
          <Form.Label className="small mb-1">How can we tell it is yours?</Form.Label>
          <Form.Control value={note} maxLength={500} onChange={(e) => setNote(e.target.value)} />
        </Form.Group>
      </div>
      <Button type="submit" variant="outline-warning" size="sm" className="mt-2" disabled={busy || !value.trim()}>
        Contest this id
      </Button>
    </Form>
  );
}

/** A decided contest, as its claimant reads it: upheld (the id moved to them) or dismissed, with the reason. */
function DisputeOutcome({ dispute: d }: { dispute: MyDispute }) {
  return (
    <p className="small mb-1" data-testid="dispute-outcome">
      {d.status === 'awarded' ? (
        <>
          Your claim on {d.label} <code>{d.value}</code> was upheld: the id is now linked to your account.
        </>
      ) : (
        <>
          Your claim on {d.label} <code>{d.value}</code> was dismissed.
        </>
      )}
      {d.reason && <> Reason: {d.reason}</>}
    </p>
  );
}

export function PartnerLinkStatus({
  data,
  refused = null,
}: {
  data: MyPartnerLinks | null;
  refused?: RefusedId | null;
}) {
  const [contesting, setContesting] = useState(false);
  if (!data) return null;
  const open = data.disputes.filter((d) => d.status === 'open');
  const decided = data.disputes.filter((d) => d.status !== 'open');
  return (
    <div className="mt-3" data-testid="partner-link-status">
      {data.links.length > 0 && (
        <ul className="list-unstyled mb-2 d-grid gap-2">
          {data.links.map((l) => (
            <LinkLine key={l.id} link={l} />
          ))}
        </ul>
      )}
      {data.pointsDebt > 0 && (
        <p className="small text-warning mb-2">
          You owe {formatAmount(data.pointsDebt)} points from a partner id that moved to its rightful owner. Your next
          earnings pay it off; spending points waits until then.
        </p>
      )}
      {open.map((d) => (
        <p key={d.id} className="small mb-1">
          Your claim on {d.label} <code>{d.value}</code> is with the admins.
        </p>
      ))}
      {decided.map((d) => (
        <DisputeOutcome key={d.id} dispute={d} />
      ))}
      <p className="small text-body-secondary mb-0">
        Someone else holds your id?{' '}
        <Button variant="link" size="sm" className="p-0 align-baseline" onClick={() => setContesting((c) => !c)}>
          Contest it
        </Button>
      </p>
      {contesting && (
        <ContestForm
          key={refused ? `${refused.field}:${refused.value}` : ''}
          start={refused}
          onDone={() => setContesting(false)}
        />
      )}
    </div>
  );
}
