/**
 * Admin → Fulfilment (/admin/fulfilment): one queue of everything a person must deliver — store
 * orders, daily-reward payouts, challenge and leaderboard prizes, game wins — filterable by status
 * and kind. Each item shows what to deliver (description, amount and unit) and the recipient's
 * linked accounts; Deliver takes an optional note (a tip id…), Reject refunds through the ledger
 * when the item carries a refund.
 */
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import {
  fulfilmentKindLabel,
  fulfilmentKindLabels,
  fulfilmentEndpoints,
  fulfilmentStatuses,
  type FulfilmentItem,
  type FulfilmentQuery,
} from '@kickback/common/http/fulfilment';
import { Avatar } from '../../components/ui/avatar';
import { LinkedAccountList } from '../../components/ui/linked-accounts';
import { Pager } from '../../components/ui/pager';
import { StatusBadge } from '../../components/ui/status-badge';
import { useAuth } from '../../shared/auth/auth-context';
import { useDeliverItem, useRejectItem } from './api';
import { formatAmount, formatPrize } from '../../lib/format';
import './fulfilment.css';
import { useFormSubmit } from '../../lib/use-form-submit';
import { usePaged } from '../../lib/use-paged';
import { EmptyRow } from '../../components/ui/empty-row';

const kindLabel = fulfilmentKindLabel;
const amountText = (item: FulfilmentItem) => formatPrize(item.amount, item.unit);

/** A store order's delivery: the trade URL or email the buyer gave, or that a code went out at purchase. */
function OrderDelivery({ item }: { item: FulfilmentItem }) {
  const d = item.delivery;
  if (!d || d.kind === 'none') return null;
  if (d.kind === 'code') {
    return (
      <div className="small mb-1" data-testid="order-delivery">
        <Badge bg="info" className="fw-normal">
          Instant code
        </Badge>{' '}
        delivered automatically at purchase
      </div>
    );
  }
  return (
    <div className="small mb-1 kb-order-detail" data-testid="order-delivery">
      <span className="text-body-secondary">{d.kind === 'email' ? 'Email: ' : 'Steam trade URL: '}</span>
      {d.detail === null ? (
        '—'
      ) : d.kind === 'email' ? (
        <a href={`mailto:${d.detail}`}>{d.detail}</a>
      ) : (
        <a href={d.detail} target="_blank" rel="noreferrer noopener">
          {d.detail}
        </a>
      )}
    </div>
  );
}

type Action = { item: FulfilmentItem; kind: 'deliver' | 'reject' };

function ActionModal({ action, onClose, onDone }: { action: Action | null; onClose(): void; onDone(): void }) {
  const [note, setNote] = useState('');
  const item = action?.item;
  const deliver = action?.kind === 'deliver';
  // A held-back prize: delivering it is an Admin's approval, which pays it through the ledger.
  const approve = deliver && item?.credit != null;

  const deliverItem = useDeliverItem();
  const rejectItem = useRejectItem();
  const { busy, onSubmit } = useFormSubmit(async () => {
    if (!action) return null;
    const { message } = await (deliver ? deliverItem : rejectItem).mutateAsync({
      params: { id: action.item.id },
      body: { note: note.trim() || null },
    });
    setNote('');
    return message;
  }, onDone);

  return (
    <Modal show={action !== null} onHide={onClose} centered>
      <Form onSubmit={onSubmit}>
        <Modal.Header closeButton>
          <Modal.Title as="h2" className="h5">
            {approve ? 'Approve and pay' : deliver ? 'Mark as delivered' : 'Reject'}: {item?.description}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {item && (
            <p className="mb-3">
              {approve ? 'Pay' : deliver ? 'Deliver' : 'Reject'} <strong>{amountText(item)}</strong> for{' '}
              <strong>{item.user.username}</strong>. {approve && 'Their balance is credited at once.'}
              {!deliver &&
                (item.refund
                  ? `${formatAmount(item.refund.amount)} ${item.refund.currency} go back to them automatically.`
                  : 'Nothing is refunded for this kind of item.')}
            </p>
          )}
          <Form.Group controlId="fulfilment-note">
            <Form.Label>Note {deliver ? '(e.g. tip id or code sent)' : '(the reason, shown to the user)'}</Form.Label>
            <Form.Control
              as="textarea"
              rows={2}
              maxLength={500}
              value={note}
              onChange={(e) => setNote(e.target.value)}
            />
            <Form.Text>Optional. The user sees it in My activity.</Form.Text>
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant={deliver ? 'primary' : 'danger'} disabled={busy}>
            {approve ? 'Approve and pay' : deliver ? 'Mark delivered' : item?.refund ? 'Reject and refund' : 'Reject'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

export default function FulfilmentPage() {
  const [status, setStatus] = useState('pending');
  const [kind, setKind] = useState('');
  const [page, setPage] = useState(1);
  const [action, setAction] = useState<Action | null>(null);
  // Moderators mark items delivered; rejecting refunds money, which only an admin does.
  const mayReject = useAuth().user?.role === 'Admin';
  const { data } = usePaged(fulfilmentEndpoints.queue, page, {
    ...(status ? { status: status as FulfilmentQuery['status'] } : {}),
    ...(kind ? { kind } : {}),
  });

  return (
    <section className="container-xl py-4">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-1">
        <h1 className="h3 mb-0">Fulfilment</h1>
        {data && data.pendingCount > 0 && (
          <Badge bg="warning" text="dark" pill>
            {data.pendingCount} pending
          </Badge>
        )}
      </div>
      <p className="text-body-secondary">
        Everything someone has to deliver by hand: store orders, reward payouts and prizes. Deliver it to the linked
        account shown, then mark it delivered;{' '}
        {mayReject
          ? 'rejecting refunds what the user paid.'
          : 'an admin rejects (and refunds) what cannot be delivered.'}
      </p>
      <div className="d-flex flex-wrap gap-2 mb-3">
        <Form.Select
          aria-label="Filter by status"
          className="w-auto"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value);
            setPage(1);
          }}
        >
          <option value="">All statuses</option>
          {fulfilmentStatuses.map((s) => (
            <option key={s} value={s}>
              {s[0]!.toUpperCase() + s.slice(1)}
            </option>
          ))}
        </Form.Select>
        <Form.Select
          aria-label="Filter by kind"
          className="w-auto"
          value={kind}
          onChange={(e) => {
            setKind(e.target.value);
            setPage(1);
          }}
        >
          <option value="">All kinds</option>
          {[...new Set([...Object.keys(fulfilmentKindLabels), ...(data?.kinds ?? [])])].map((k) => (
            <option key={k} value={k}>
              {kindLabel(k)}
            </option>
          ))}
        </Form.Select>
      </div>
      <div className="kb-card p-0 table-responsive" tabIndex={0} role="region" aria-label="Fulfilment queue">
        <Table variant="dark" hover className="align-middle mb-0" data-testid="fulfilment-table">
          <thead>
            <tr>
              <th>Requested</th>
              <th>What</th>
              <th className="text-end">Amount</th>
              <th>Recipient</th>
              <th>Deliver to</th>
              <th>Status</th>
              <th className="text-end">Actions</th>
            </tr>
          </thead>
          <tbody>
            {data?.items.map((item) => (
              <tr key={item.id} data-item={item.id}>
                <td className="text-nowrap small">{new Date(item.createdAt).toLocaleString()}</td>
                <td>
                  <div className="fw-semibold">{item.description}</div>
                  <Badge bg="secondary" className="fw-normal">
                    {kindLabel(item.kind)}
                  </Badge>{' '}
                  <small className="text-body-secondary">#{item.reference}</small>
                </td>
                <td className="text-end text-nowrap fw-semibold">{amountText(item)}</td>
                <td>
                  <span className="d-inline-flex align-items-center gap-2">
                    <Avatar url={item.user.avatarUrl} size={24} />
                    {item.user.username}
                  </span>
                  {item.user.excluded && (
                    <Badge bg="danger" className="ms-1">
                      excluded
                    </Badge>
                  )}
                </td>
                <td>
                  <OrderDelivery item={item} />
                  <LinkedAccountList user={item.user} />
                </td>
                <td>
                  <StatusBadge status={item.status} />
                  {item.note && <div className="small text-body-secondary mt-1">{item.note}</div>}
                  {item.handledBy && (
                    <div className="small text-body-secondary">
                      by {item.handledBy}
                      {item.handledAt ? `, ${new Date(item.handledAt).toLocaleDateString()}` : ''}
                    </div>
                  )}
                </td>
                <td className="text-end text-nowrap">
                  {item.status === 'pending' && item.credit && !mayReject && (
                    <Badge bg="warning" text="dark">
                      Awaiting an Admin’s approval
                    </Badge>
                  )}
                  {item.status === 'pending' && (!item.credit || mayReject) && (
                    <>
                      {item.credit ? (
                        <Button
                          size="sm"
                          className="me-1"
                          onClick={() => setAction({ item, kind: 'deliver' })}
                          aria-label={`Approve and pay ${item.description} for ${item.user.username}`}
                        >
                          Approve
                        </Button>
                      ) : (
                        <Button
                          size="sm"
                          className="me-1"
                          onClick={() => setAction({ item, kind: 'deliver' })}
                          aria-label={`Mark ${item.description} for ${item.user.username} delivered`}
                        >
                          Deliver
                        </Button>
                      )}
                      {mayReject && (
                        <Button
                          size="sm"
                          variant="outline-danger"
                          onClick={() => setAction({ item, kind: 'reject' })}
                          aria-label={`Reject ${item.description} for ${item.user.username}`}
                        >
                          Reject
                        </Button>
                      )}
                    </>
                  )}
                </td>
              </tr>
            ))}
            {data && data.items.length === 0 && (
              <EmptyRow columns={7}>
                {status === 'pending' ? 'All caught up — nothing waiting to be delivered.' : 'Nothing here.'}
              </EmptyRow>
            )}
          </tbody>
        </Table>
      </div>
      {data && (
        <div className="mt-3">
          <Pager label="Fulfilment pages" page={page} total={data.total} pageSize={data.pageSize} onPage={setPage} />
        </div>
      )}
      <ActionModal
        key={action ? `${action.kind}-${action.item.id}` : 'closed'}
        action={action}
        onClose={() => setAction(null)}
        onDone={() => setAction(null)}
      />
    </section>
  );
}
