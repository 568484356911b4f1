/**
 * /ChallengeManagement (admin, docs/product.md#challenge-management-admin): every challenge in a table
 * (Title, Category, Price, Status, Start Date, End Date, Winner, edit), Create New Challenge, and
 * the create and update modals. Completing with a winner queues the prize for fulfilment.
 */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { FaPen, FaPlus } from 'react-icons/fa6';
import { challengeStatusLabel, type Challenge } from '@kickback/common/http/challenges';
import { useSite } from '../../shared/site-context';
import { formatAmount } from '../../lib/format';
import { useAllChallenges } from './api';
import { ChallengeFormModal } from './challenge-form-modal';
import './challenges.css';
import { EmptyRow } from '../../components/ui/empty-row';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const when = (iso: string | null) => (iso ? dateFormat.format(new Date(iso)) : '—');

export default function ChallengeManagementPage() {
  const site = useSite();
  const query = useAllChallenges();
  const list = query.data ?? (query.isError ? [] : null);
  const [target, setTarget] = useState<Challenge | 'new' | null>(null);

  return (
    <section className="container-xl py-4">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <div>
          <h1 className="h3 mb-1">Challenge Management</h1>
          <p className="text-body-secondary mb-0">
            Create challenges, end them and pick the winner. A completed challenge with a winner puts its prize in the
            fulfilment queue.
          </p>
        </div>
        <Button onClick={() => setTarget('new')}>
          <FaPlus aria-hidden className="me-1" /> Create New Challenge
        </Button>
      </div>
      {list === null ? (
        <Spinner animation="border" role="status">
          <span className="visually-hidden">Loading…</span>
        </Spinner>
      ) : (
        <div className="table-responsive kb-card p-0" tabIndex={0} role="region" aria-label="Challenges">
          <Table variant="dark" hover className="align-middle mb-0 kb-admin-table">
            <thead>
              <tr>
                <th>Title</th>
                <th>Category</th>
                <th className="text-end">Price</th>
                <th>Status</th>
                <th>Start Date</th>
                <th>End Date</th>
                <th>Winner</th>
                <th>
                  <span className="visually-hidden">Edit</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.length === 0 && <EmptyRow columns={8}>No challenges yet. Create the first one.</EmptyRow>}
              {list.map((c) => (
                <tr key={c.id}>
                  <td className="kb-wrap fw-semibold">{c.title}</td>
                  <td>{c.category || '—'}</td>
                  <td className="text-end">${formatAmount(c.price)}</td>
                  <td>
                    <span className={`kb-status kb-status-${c.status in { 0: 1, 1: 1, 2: 1 } ? c.status : 'x'}`}>
                      {challengeStatusLabel(c.status)}
                    </span>
                  </td>
                  <td>{when(c.createdAt)}</td>
                  <td>{when(c.endedAt)}</td>
                  <td>{c.winnerUserName ?? '—'}</td>
                  <td className="text-end">
                    <Button
                      size="sm"
                      variant="outline-light"
                      onClick={() => setTarget(c)}
                      aria-label={`Edit ${c.title}`}
                    >
                      <FaPen aria-hidden />
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
      <ChallengeFormModal
        target={target}
        defaultCategory={site.challengeCategory}
        onClose={() => setTarget(null)}
        onSaved={() => setTarget(null)}
      />
    </section>
  );
}
