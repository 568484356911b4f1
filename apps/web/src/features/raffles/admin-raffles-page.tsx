/**
 * Admin → Raffles: every raffle with its state and tickets sold; create and edit (drafts), open
 * (publishes the seed hash), close (stops sales; the draw follows at once), draw, cancel (refunds
 * every bought ticket). Cancel and Draw ask first.
 */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import { toast } from 'react-toastify';
import { Link } from 'react-router';
import { adminRaffleEndpoints, raffleEndpoints, type AdminRaffle } from '@kickback/common/http/raffles';
import { EmptyRow } from '../../components/ui/empty-row';
import { formatAmount } from '../../lib/format';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';
import { prizeLine, raffleState } from './raffle-facts';
import { RaffleFormModal } from './raffle-form-modal';

type Action = 'open' | 'close' | 'cancel' | 'draw';
const actionLabels: Record<Action, string> = { open: 'Open', close: 'Close', cancel: 'Cancel', draw: 'Draw' };
const asks: Partial<Record<Action, string>> = {
  cancel: 'Cancel this raffle? Every bought ticket is refunded.',
  draw: 'Draw this raffle now? Sales stop and the winners are paid.',
};

function actionsOf(r: AdminRaffle): Action[] {
  if (r.status === 'draft') return ['open', 'cancel'];
  if (r.status === 'open') return ['close', 'draw', 'cancel'];
  if (r.status === 'closed') return ['draw', 'cancel'];
  return [];
}

export default function AdminRafflesPage() {
  const list = useEndpointQuery(adminRaffleEndpoints.list);
  const [editing, setEditing] = useState<AdminRaffle | 'new' | null>(null);
  const [asking, setAsking] = useState<{ raffle: AdminRaffle; action: Action } | null>(null);
  const invalidates = [adminRaffleEndpoints.list, raffleEndpoints.list, raffleEndpoints.get];
  const mutations = {
    open: useEndpointMutation(adminRaffleEndpoints.open, { invalidates, alsoOnError: true }),
    close: useEndpointMutation(adminRaffleEndpoints.close, { invalidates, alsoOnError: true }),
    cancel: useEndpointMutation(adminRaffleEndpoints.cancel, { invalidates, alsoOnError: true }),
    draw: useEndpointMutation(adminRaffleEndpoints.draw, { invalidates, alsoOnError: true }),
  };
  const run = async (raffle: AdminRaffle, action: Action) => {
    setAsking(null);
    try {
      const res = await mutations[action].mutateAsync({ params: { id: raffle.id } });
      toast.success(res.message);
    } catch {
      // The API wrapper showed the server's message.
    }
  };

  return (
    <section className="container-xl py-4">
      <div className="d-flex justify-content-between align-items-center mb-3">
        <h1 className="h2 mb-0">Raffles</h1>
        <Button onClick={() => setEditing('new')}>New raffle</Button>
      </div>
      <div className="kb-card p-0 table-responsive" tabIndex={0} role="region" aria-label="Raffles">
        <Table variant="dark" hover className="align-middle mb-0" data-testid="raffles-table">
          <thead>
            <tr>
              <th>Raffle</th>
              <th>Prizes</th>
              <th className="text-end">Ticket</th>
              <th className="text-end">Sold</th>
              <th>State</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.map((r) => (
              <tr key={r.id}>
                <td>{r.status === 'draft' ? r.title : <Link to={`/raffles/${r.id}`}>{r.title}</Link>}</td>
                <td className="small">{prizeLine(r)}</td>
                <td className="text-end text-nowrap">{formatAmount(r.ticketPrice)} pts</td>
                <td className="text-end">{r.ticketsSold}</td>
                <td className="small">{r.status === 'draft' ? 'Draft' : raffleState(r)}</td>
                <td className="text-nowrap">
                  {r.status === 'draft' && (
                    <Button size="sm" variant="outline-light" className="me-1" onClick={() => setEditing(r)}>
                      Edit
                    </Button>
                  )}
                  {actionsOf(r).map((action) => (
                    <Button
                      key={action}
                      size="sm"
                      className="me-1"
                      variant={action === 'cancel' ? 'outline-danger' : 'outline-light'}
                      aria-label={`${actionLabels[action]} ${r.title}`}
                      onClick={() => (asks[action] ? setAsking({ raffle: r, action }) : void run(r, action))}
                    >
                      {actionLabels[action]}
                    </Button>
                  ))}
                </td>
              </tr>
            ))}
            {list.data && list.data.length === 0 && <EmptyRow columns={6}>No raffles yet.</EmptyRow>}
          </tbody>
        </Table>
      </div>
      {editing && <RaffleFormModal editing={editing} onClose={() => setEditing(null)} />}
      <Modal show={asking !== null} onHide={() => setAsking(null)} centered aria-labelledby="raffle-ask-title">
        <Modal.Header closeButton>
          <Modal.Title as="h2" className="h5" id="raffle-ask-title">
            {asking ? `${actionLabels[asking.action]} ${asking.raffle.title}` : ''}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>{asking ? asks[asking.action] : ''}</Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setAsking(null)}>
            Back
          </Button>
          <Button variant="danger" onClick={() => asking && void run(asking.raffle, asking.action)}>
            {asking ? actionLabels[asking.action] : ''}
          </Button>
        </Modal.Footer>
      </Modal>
    </section>
  );
}
