/**
 * My activity (user dropdown; docs/features/points-and-store.md#the-ledger "a ledger users can
 * see"): the user's store orders with their delivery status and the admin's note, their rewards and
 * prizes on the way (daily rewards, challenge, leaderboard and game prizes from the fulfilment
 * queue), the chat predictions they bet on with each result (a loser sees the loss, which moves no
 * points), their raffle tickets (each with its source and the raffle's result), and every change
 * of their points and gems, newest first, with the reason in words.
 */
import { useState, type ReactNode } from 'react';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { activityEndpoints, reasonInWords, type pageQuery } from '@kickback/common/http/activity';
import type { EndpointSpec, Paged } from '@kickback/common/http/endpoint';
import { fulfilmentKindLabel } from '@kickback/common/http/fulfilment';
import { predictionEndpoints, type MyPredictionBet } from '@kickback/common/http/prediction';
import { raffleEndpoints, ticketSourceText, type MyRaffleTicket } from '@kickback/common/http/raffles';
import { useAuth } from '../../shared/auth/auth-context';
import { formatAmount, formatPrize } from '../../lib/format';
import { Pager } from '../../components/ui/pager';
import { StatusBadge } from '../../components/ui/status-badge';
import { usePaged } from '../../lib/use-paged';
import type { z } from 'zod';
import './activity.css';
import { EmptyRow } from '../../components/ui/empty-row';
import { PendingVerification } from './pending-verification';

const predictionResult: Record<MyPredictionBet['result'], string> = {
  open: 'Open',
  won: 'Won',
  lost: 'Lost',
  refunded: 'Refunded: nobody won',
  cancelled: 'Cancelled: refunded',
};

/** What a settled bet did to the balance: winnings over the stake, the stake lost, or nothing. */
function predictionChange(b: MyPredictionBet): ReactNode {
  if (b.payout === null) return '—';
  const net = b.payout - b.stake;
  if (net === 0) return '±0 pts';
  return (
    <span className={`fw-semibold ${net > 0 ? 'kb-delta-plus' : 'kb-delta-minus'}`}>
      {net > 0 ? '+' : '−'}
      {formatAmount(Math.abs(net))} pts
    </span>
  );
}

/** A raffle's outcome for the owner of these tickets. */
function raffleResult(t: MyRaffleTicket): string {
  if (t.refunded) return 'Cancelled: refunded';
  if (t.raffleStatus === 'cancelled') return 'Cancelled';
  if (t.raffleStatus !== 'drawn') return 'Not drawn yet';
  return t.won.length > 0 ? `Won ${t.won.join(', ')}` : 'Not a winner';
}

function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** One of My activity's paged lists. */
type PagedList<T> = EndpointSpec & { query: typeof pageQuery; response: z.ZodType<Paged<T>> };

/** One paged table of the page: heading, columns, rows, an empty line and the pager. */
function PagedSection<T extends { id: number | string }>({
  title,
  label,
  testId,
  endpoint,
  columns,
  row,
  empty,
}: {
  title: string;
  label: string;
  testId: string;
  endpoint: PagedList<T>;
  /** `wide`: a column shown from tablets up (on phones its value goes inside another cell). */
  columns: { name: string; end?: boolean; wide?: boolean }[];
  row(item: T): ReactNode;
  empty: ReactNode;
}) {
  const [page, setPage] = useState(1);
  const data = usePaged(endpoint, page).data;
  return (
    <>
      <h2 className="h5 mt-4 mb-2">{title}</h2>
      <div className="kb-card p-0 mb-2 table-responsive" tabIndex={0} role="region" aria-label={label}>
        <Table variant="dark" hover className="align-middle mb-0" data-testid={testId}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th
                  key={c.name}
                  className={
                    [c.end && 'text-end', c.wide && 'd-none d-md-table-cell'].filter(Boolean).join(' ') || undefined
                  }
                >
                  {c.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data?.items.map((item) => (
              <tr key={item.id}>{row(item)}</tr>
            ))}
            {data && data.items.length === 0 && <EmptyRow columns={columns.length}>{empty}</EmptyRow>}
          </tbody>
        </Table>
      </div>
      {data && (
        <Pager label={`${title} pages`} page={page} total={data.total} pageSize={data.pageSize} onPage={setPage} />
      )}
    </>
  );
}

export default function MyActivityPage() {
  const { user } = useAuth();
  return (
    <section className="container-xl py-4">
      <h1 className="h2 mb-1">My activity</h1>
      {user && (
        <p className="text-body-secondary mb-3">
          Balance: <strong className="kb-accent">{formatAmount(user.points)}</strong> points ·{' '}
          <strong>{formatAmount(user.gems)}</strong> gems
        </p>
      )}

      <PagedSection
        title="Orders"
        label="My orders"
        testId="my-orders"
        endpoint={activityEndpoints.orders}
        columns={[
          { name: 'Date', wide: true },
          { name: 'Product' },
          { name: 'Price', end: true },
          { name: 'Status', wide: true },
          { name: 'Note' },
        ]}
        row={(o) => (
          <>
            <td className="text-nowrap d-none d-md-table-cell">{when(o.createdAt)}</td>
            <td>
              {o.productName}
              <div className="small text-body-secondary d-md-none">{when(o.createdAt)}</div>
            </td>
            <td className="text-end">
              <div className="text-nowrap">{formatAmount(o.price)} pts</div>
              <div className="d-md-none">
                <StatusBadge status={o.status} />
              </div>
            </td>
            <td className="d-none d-md-table-cell">
              <StatusBadge status={o.status} />
            </td>
            <td className="small text-body-secondary kb-activity-note">
              {o.code !== null && (
                <div className="text-body" data-testid="order-code">
                  Your code: <code className="kb-accent user-select-all">{o.code}</code>
                </div>
              )}
              {o.deliveryDetail && <div className="kb-order-detail">To {o.deliveryDetail}</div>}
              {o.code === null && !o.deliveryDetail && !o.note ? '—' : o.note}
            </td>
          </>
        )}
        empty={
          <>
            No orders yet. <Link to="/store">Visit the store</Link>.
          </>
        }
      />

      <PagedSection
        title="Rewards and prizes"
        label="My rewards and prizes"
        testId="my-payouts"
        endpoint={activityEndpoints.payouts}
        columns={[
          { name: 'Date', wide: true },
          { name: 'What' },
          { name: 'Amount', end: true },
          { name: 'Status', wide: true },
          { name: 'Note' },
        ]}
        row={(p) => (
          <>
            <td className="text-nowrap d-none d-md-table-cell">{when(p.createdAt)}</td>
            <td>
              {p.description}
              <div className="small text-body-secondary">{fulfilmentKindLabel(p.kind)}</div>
              <div className="small text-body-secondary d-md-none">{when(p.createdAt)}</div>
            </td>
            <td className="text-end">
              <div className="text-nowrap">{formatPrize(p.amount, p.unit)}</div>
              <div className="d-md-none">
                <StatusBadge status={p.status} />
              </div>
            </td>
            <td className="d-none d-md-table-cell">
              <StatusBadge status={p.status} />
            </td>
            <td className="small text-body-secondary kb-activity-note">{p.note ?? '—'}</td>
          </>
        )}
        empty={
          <>
            No rewards yet. <Link to="/DailyRewards">Claim today&apos;s daily reward</Link>.
          </>
        }
      />

      <PendingVerification />

      <PagedSection
        title="Predictions"
        label="My predictions"
        testId="my-predictions"
        endpoint={predictionEndpoints.myBets}
        columns={[
          { name: 'Date', wide: true },
          { name: 'Prediction' },
          { name: 'Stake', end: true, wide: true },
          { name: 'Result' },
          { name: 'Won or lost', end: true },
        ]}
        row={(b) => (
          <>
            <td className="text-nowrap d-none d-md-table-cell">{when(b.settledAt ?? b.betAt)}</td>
            <td>
              {b.question}
              <div className="small text-body-secondary">your answer: {b.answer}</div>
              <div className="small text-body-secondary d-md-none">
                stake {formatAmount(b.stake)} pts · {when(b.settledAt ?? b.betAt)}
              </div>
            </td>
            <td className="text-end text-nowrap d-none d-md-table-cell">{formatAmount(b.stake)} pts</td>
            <td>{predictionResult[b.result]}</td>
            <td className="text-end text-nowrap">{predictionChange(b)}</td>
          </>
        )}
        empty="No predictions yet. Bet with !bet in the stream's chat while a prediction is open."
      />

      <PagedSection
        title="Raffle tickets"
        label="My raffle tickets"
        testId="my-raffle-tickets"
        endpoint={raffleEndpoints.mine}
        columns={[{ name: 'Date', wide: true }, { name: 'Raffle' }, { name: 'Tickets', end: true }, { name: 'Result' }]}
        row={(t) => (
          <>
            <td className="text-nowrap d-none d-md-table-cell">{when(t.createdAt)}</td>
            <td>
              <Link to={`/raffles/${t.raffleId}`}>{t.raffleTitle}</Link>
              <div className="small text-body-secondary">
                {ticketSourceText[t.source]}
                {t.pointsPaid > 0 && ` · ${formatAmount(t.pointsPaid)} pts`}
              </div>
            </td>
            <td className="text-end">{t.quantity}</td>
            <td>{raffleResult(t)}</td>
          </>
        )}
        empty={
          <>
            No raffle tickets yet. <Link to="/raffles">See the raffles</Link>.
          </>
        }
      />

      <PagedSection
        title="Points and gems"
        label="My ledger"
        testId="my-ledger"
        endpoint={activityEndpoints.ledger}
        columns={[
          { name: 'Date', wide: true },
          { name: 'What' },
          { name: 'Change', end: true },
          { name: 'Balance', end: true, wide: true },
        ]}
        row={(e) => (
          <>
            <td className="text-nowrap d-none d-md-table-cell">{when(e.createdAt)}</td>
            <td>
              {reasonInWords(e.reason)}
              {e.memo && <div className="small text-body-secondary">{e.memo}</div>}
              <div className="small text-body-secondary d-md-none">{when(e.createdAt)}</div>
            </td>
            <td className="text-end">
              <div className={`text-nowrap fw-semibold ${e.delta > 0 ? 'kb-delta-plus' : 'kb-delta-minus'}`}>
                {e.delta > 0 ? '+' : '−'}
                {formatAmount(Math.abs(e.delta))} {e.currency === 'gems' ? 'gems' : 'pts'}
              </div>
              <div className="small text-body-secondary text-nowrap d-md-none">
                balance {formatAmount(e.balanceAfter)} {e.currency}
              </div>
            </td>
            <td className="text-end text-nowrap d-none d-md-table-cell">
              {formatAmount(e.balanceAfter)} {e.currency}
            </td>
          </>
        )}
        empty="Nothing yet. Chat on stream with your Kick account linked to start earning points."
      />
    </section>
  );
}
