/**
 * Admin → Verification (/admin/verification), beside Fulfilment: partner ids waiting for proof
 * and disputes over ids someone else holds, with what supports each (the partner's row, the
 * user's Kick name and last chat, other accounts on the same player, when). Approve or reject
 * with a reason, bulk approve the obvious ones, mark all ids that predate verification as
 * verified; award a dispute (the link moves, the wrong holder's points are taken back) or dismiss it.
 */
import { useState, type FormEvent } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import { toast } from 'react-toastify';
import { partnerVerificationEndpoints, type QueueClaim, type QueueDispute } from '@kickback/common/http/partner-links';
import { EmptyRow } from '../../components/ui/empty-row';
import { formatAmount } from '../../lib/format';
import { useLoaded } from '../../lib/partner-links';
import { useApproveClaims, useApproveExisting, useDecisions } from './api';

type Decision =
  { kind: 'approve' | 'reject'; claim: QueueClaim } | { kind: 'award' | 'dismiss'; dispute: QueueDispute };

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function Support({ claim }: { claim: QueueClaim }) {
  const row = claim.partnerRow;
  return (
    <div className="small">
      {row ? (
        <div>
          {row.siteName}: <strong>{row.username}</strong>
          {row.externalId && <span className="text-body-secondary"> (id {row.externalId})</span>} ·{' '}
          {formatAmount(row.wagered)} {row.unit} wagered · seen {when(row.seenAt)}
        </div>
      ) : (
        <div className="text-body-secondary">No partner board has listed this player yet.</div>
      )}
      {claim.others.length > 0 && (
        <div className="text-warning">
          Also claimed by:{' '}
          {claim.others
            .map((o) => `${o.username} (${o.kind === 'dispute' ? 'dispute' : o.state}, ${when(o.at)})`)
            .join(', ')}
        </div>
      )}
    </div>
  );
}

function UserCell({ user }: { user: QueueClaim['user'] }) {
  return (
    <div>
      <div className="fw-semibold">{user.username}</div>
      <div className="small text-body-secondary">
        Kick: {user.kickUsername ?? '—'}
        {user.lastChatAt ? ` · last chat ${when(user.lastChatAt)}` : user.kickUsername ? ' · never chatted' : ''}
      </div>
      <div className="small text-body-secondary">Member since {when(user.createdAt)}</div>
    </div>
  );
}

function DecisionModal({ decision, onClose, onDone }: { decision: Decision | null; onClose(): void; onDone(): void }) {
  const [reason, setReason] = useState('');
  const decisions = useDecisions();
  const busy = Object.values(decisions).some((m) => m.isPending);
  const needsReason = decision?.kind === 'reject' || decision?.kind === 'dismiss';
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!decision || (needsReason && !reason.trim())) return;
    const input = {
      params: { id: 'claim' in decision ? decision.claim.id : decision.dispute.id },
      body: { reason: reason.trim() },
    };
    try {
      const { message } = await decisions[decision.kind].mutateAsync(input);
      toast.success(message);
      setReason('');
      onDone();
    } catch {
      // shown by the API wrapper
    }
  };
  const title =
    decision?.kind === 'approve'
      ? 'Approve claim'
      : decision?.kind === 'reject'
        ? 'Reject claim'
        : decision?.kind === 'award'
          ? 'Award the link to the claimant'
          : 'Dismiss dispute';
  return (
    <Modal show={decision !== null} onHide={onClose} centered aria-labelledby="kb-verification-title">
      <Form onSubmit={(e) => void submit(e)}>
        <Modal.Header closeButton>
          <Modal.Title as="h2" className="h5" id="kb-verification-title">
            {title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {decision && (decision.kind === 'approve' || decision.kind === 'reject') && (
            <p>
              {decision.claim.label} <code>{decision.claim.value}</code> for{' '}
              <strong>{decision.claim.user.username}</strong>.{' '}
              {decision.kind === 'approve'
                ? `${formatAmount(decision.claim.heldPoints)} held points are credited now.`
                : `${formatAmount(decision.claim.heldPoints)} held points are dropped.`}
            </p>
          )}
          {decision && decision.kind === 'award' && (
            <p>
              {decision.dispute.link.label} <code>{decision.dispute.link.value}</code> moves from{' '}
              <strong>{decision.dispute.link.user.username}</strong> to{' '}
              <strong>{decision.dispute.claimant.username}</strong>. The{' '}
              {formatAmount(decision.dispute.link.creditedPoints)} points it earned them are taken back (what they
              already spent becomes a debt).
            </p>
          )}
          <Form.Group controlId="kb-verification-reason">
            <Form.Label>Reason {needsReason ? '' : '(optional)'}</Form.Label>
            <Form.Control
              as="textarea"
              rows={2}
              maxLength={500}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
            <Form.Text>
              {decision && decision.kind !== 'approve'
                ? 'Recorded in the audit log; the user sees it on their profile.'
                : 'Recorded in the audit log.'}
            </Form.Text>
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant={needsReason ? 'danger' : 'primary'}
            disabled={busy || (needsReason && !reason.trim())}
          >
            {title}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

export default function PartnerVerificationPage() {
  const { data } = useLoaded(partnerVerificationEndpoints.queue);
  const [decision, setDecision] = useState<Decision | null>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const approveClaims = useApproveClaims();
  const approveExisting = useApproveExisting();
  const busy = approveClaims.isPending || approveExisting.isPending;

  const bulk = async (run: () => Promise<{ message: string }>) => {
    try {
      toast.success((await run()).message);
      setSelected(new Set());
    } catch {
      // shown by the API wrapper
    }
  };
  const toggle = (id: number) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const claims = data?.claims ?? [];

  return (
    <section className="container-xl py-4">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-1">
        <h1 className="h3 mb-0">Verification</h1>
        {data && claims.length + data.disputes.length > 0 && (
          <Badge bg="warning" text="dark" pill>
            {claims.length + data.disputes.length} waiting
          </Badge>
        )}
      </div>
      <p className="text-body-secondary">
        Partner ids are claims until proven. Clash.gg, Cases.gg and RustMagic ids verify themselves when the player puts
        their code into their partner-site name; Roobet names, and anything you can tell at a glance, are decided here.
        Until then a claim earns nothing: its wager points are held.
      </p>

      <h2 className="h5 mt-4">Disputes</h2>
      <div className="kb-card p-0 mb-3 table-responsive" tabIndex={0} role="region" aria-label="Disputes">
        <Table variant="dark" hover className="align-middle mb-0" data-testid="disputes-table">
          <thead>
            <tr>
              <th>Opened</th>
              <th>Partner id</th>
              <th>Claimant</th>
              <th>Current holder</th>
              <th>Support</th>
              <th className="text-end">Actions</th>
            </tr>
          </thead>
          <tbody>
            {data?.disputes.map((d) => (
              <tr key={d.id}>
                <td className="small text-nowrap">{when(d.createdAt)}</td>
                <td>
                  {d.link.label} <code>{d.value}</code>
                  {d.note && <div className="small text-body-secondary">“{d.note}”</div>}
                </td>
                <td>
                  <UserCell user={d.claimant} />
                </td>
                <td>
                  <UserCell user={d.link.user} />
                  <Badge
                    bg={d.link.state === 'verified' ? 'success' : 'warning'}
                    text={d.link.state === 'verified' ? undefined : 'dark'}
                  >
                    {d.link.state}
                  </Badge>
                </td>
                <td>
                  <Support claim={d.link} />
                </td>
                <td className="text-end text-nowrap">
                  <Button size="sm" className="me-1" onClick={() => setDecision({ kind: 'award', dispute: d })}>
                    Award
                  </Button>
                  <Button size="sm" variant="danger" onClick={() => setDecision({ kind: 'dismiss', dispute: d })}>
                    Dismiss
                  </Button>
                </td>
              </tr>
            ))}
            {data && data.disputes.length === 0 && <EmptyRow columns={6}>No open disputes.</EmptyRow>}
          </tbody>
        </Table>
      </div>

      <div className="d-flex flex-wrap align-items-center gap-2 mt-4 mb-2">
        <h2 className="h5 mb-0 me-auto">Pending claims</h2>
        <Button
          size="sm"
          disabled={busy || selected.size === 0}
          onClick={() => void bulk(() => approveClaims.mutateAsync({ body: { ids: [...selected] } }))}
        >
          Approve selected ({selected.size})
        </Button>
        {data && data.migratedPending > 0 && (
          <Button
            size="sm"
            variant="outline-warning"
            disabled={busy}
            onClick={() => void bulk(() => approveExisting.mutateAsync({}))}
          >
            Mark all existing as verified ({data.migratedPending})
          </Button>
        )}
      </div>
      <div className="kb-card p-0 table-responsive" tabIndex={0} role="region" aria-label="Pending claims">
        <Table variant="dark" hover className="align-middle mb-0" data-testid="claims-table">
          <thead>
            <tr>
              <th>
                <Form.Check
                  aria-label="Select all"
                  checked={claims.length > 0 && selected.size === claims.length}
                  onChange={(e) => setSelected(e.target.checked ? new Set(claims.map((c) => c.id)) : new Set())}
                />
              </th>
              <th>Claimed</th>
              <th>Partner id</th>
              <th>User</th>
              <th>Support</th>
              <th className="text-end">Held</th>
              <th className="text-end">Actions</th>
            </tr>
          </thead>
          <tbody>
            {claims.map((c) => (
              <tr key={c.id} data-claim={c.id}>
                <td>
                  <Form.Check
                    aria-label={`Select ${c.user.username}'s ${c.label}`}
                    checked={selected.has(c.id)}
                    onChange={() => toggle(c.id)}
                  />
                </td>
                <td className="small text-nowrap">
                  {when(c.claimedAt)}
                  {c.migrated && (
                    <div>
                      <Badge bg="secondary">existing</Badge>
                    </div>
                  )}
                </td>
                <td>
                  {c.label} <code>{c.value}</code>
                  <div className="small text-body-secondary">
                    {c.proof === 'code' ? 'Can prove with a code' : 'Admin decides'}
                  </div>
                </td>
                <td>
                  <UserCell user={c.user} />
                </td>
                <td>
                  <Support claim={c} />
                </td>
                <td className="text-end text-nowrap">{formatAmount(c.heldPoints)} pts</td>
                <td className="text-end text-nowrap">
                  <Button size="sm" className="me-1" onClick={() => setDecision({ kind: 'approve', claim: c })}>
                    Approve
                  </Button>
                  <Button size="sm" variant="danger" onClick={() => setDecision({ kind: 'reject', claim: c })}>
                    Reject
                  </Button>
                </td>
              </tr>
            ))}
            {data && claims.length === 0 && <EmptyRow columns={7}>Nothing waiting for verification.</EmptyRow>}
          </tbody>
        </Table>
      </div>
      <DecisionModal decision={decision} onClose={() => setDecision(null)} onDone={() => setDecision(null)} />
    </section>
  );
}
