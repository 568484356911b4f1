/**
 * My activity (user dropdown; DESIGN §14 "a ledger users can see"): the user's store orders with
 * their delivery status and the admin's note, their rewards and prizes on the way (daily rewards,
 * challenge, leaderboard and game prizes from the fulfilment queue), and every change of their
 * points and gems, newest first, with the reason in words.
 */
import { useState } from 'react';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { activityPage, myOrdersPage, myPayoutsPage, reasonInWords } from '@kickback/common/http/activity';
import { fulfilmentKindLabel } from '@kickback/common/http/fulfilment';
import { useAuth } from '../../app/auth/auth-context';
import { formatPoints, formatPrize } from '../../lib/format';
import { Pager } from '../../components/ui/pager';
import { StatusBadge } from '../../components/ui/status-badge';
import { usePaged } from '../../lib/use-paged';
import './activity.css';

function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export default function MyActivityPage() {
  const { user } = useAuth();
  const [orderPage, setOrderPage] = useState(1);
  const [payoutPage, setPayoutPage] = useState(1);
  const [ledgerPage, setLedgerPage] = useState(1);
  const orders = usePaged('/api/me/orders', myOrdersPage, orderPage).data;
  const payouts = usePaged('/api/me/payouts', myPayoutsPage, payoutPage).data;
  const ledger = usePaged('/api/me/activity', activityPage, ledgerPage).data;

  return (
    <section className="container-xl py-4">
      <h1 className="h2 mb-1">My activity</h1>
      {user && (
        <p className="text-body-secondary mb-4">
          Balance: <strong className="kb-accent">{formatPoints(user.points)}</strong> points ·{' '}
          <strong>{formatPoints(user.gems)}</strong> gems
        </p>
      )}

      <h2 className="h5 mb-2">Orders</h2>
      <div className="kb-card p-0 mb-2 table-responsive" tabIndex={0} role="region" aria-label="My orders">
        <Table variant="dark" hover className="align-middle mb-0" data-testid="my-orders">
          <thead>
            <tr>
              <th>Date</th>
              <th>Product</th>
              <th className="text-end">Price</th>
              <th>Status</th>
              <th>Note</th>
            </tr>
          </thead>
          <tbody>
            {orders?.items.map((o) => (
              <tr key={o.id}>
                <td className="text-nowrap">{when(o.createdAt)}</td>
                <td>{o.productName}</td>
                <td className="text-end text-nowrap">{formatPoints(o.price)} pts</td>
                <td>
                  <StatusBadge status={o.status} />
                </td>
                <td className="small text-body-secondary">{o.note ?? '—'}</td>
              </tr>
            ))}
            {orders && orders.items.length === 0 && (
              <tr>
                <td colSpan={5} className="text-center text-body-secondary py-4">
                  No orders yet. <Link to="/store">Visit the store</Link>.
                </td>
              </tr>
            )}
          </tbody>
        </Table>
      </div>
      {orders && (
        <Pager
          label="Order pages"
          page={orderPage}
          total={orders.total}
          pageSize={orders.pageSize}
          onPage={setOrderPage}
        />
      )}

      <h2 className="h5 mt-4 mb-2">Rewards and prizes</h2>
      <div className="kb-card p-0 mb-2 table-responsive" tabIndex={0} role="region" aria-label="My rewards and prizes">
        <Table variant="dark" hover className="align-middle mb-0" data-testid="my-payouts">
          <thead>
            <tr>
              <th>Date</th>
              <th>What</th>
              <th className="text-end">Amount</th>
              <th>Status</th>
              <th>Note</th>
            </tr>
          </thead>
          <tbody>
            {payouts?.items.map((p) => (
              <tr key={p.id}>
                <td className="text-nowrap">{when(p.createdAt)}</td>
                <td>
                  {p.description}
                  <div className="small text-body-secondary">{fulfilmentKindLabel(p.kind)}</div>
                </td>
                <td className="text-end text-nowrap">{formatPrize(p.amount, p.unit)}</td>
                <td>
                  <StatusBadge status={p.status} />
                </td>
                <td className="small text-body-secondary">{p.note ?? '—'}</td>
              </tr>
            ))}
            {payouts && payouts.items.length === 0 && (
              <tr>
                <td colSpan={5} className="text-center text-body-secondary py-4">
                  No rewards yet. <Link to="/DailyRewards">Claim today&apos;s daily reward</Link>.
                </td>
              </tr>
            )}
          </tbody>
        </Table>
      </div>
      {payouts && (
        <Pager
          label="Reward pages"
          page={payoutPage}
          total={payouts.total}
          pageSize={payouts.pageSize}
          onPage={setPayoutPage}
        />
      )}

      <h2 className="h5 mt-4 mb-2">Points and gems</h2>
      <div className="kb-card p-0 mb-2 table-responsive" tabIndex={0} role="region" aria-label="My ledger">
        <Table variant="dark" hover className="align-middle mb-0" data-testid="my-ledger">
          <thead>
            <tr>
              <th>Date</th>
              <th>What</th>
              <th className="text-end">Change</th>
              <th className="text-end">Balance</th>
            </tr>
          </thead>
          <tbody>
            {ledger?.items.map((e) => (
              <tr key={e.id}>
                <td className="text-nowrap">{when(e.createdAt)}</td>
                <td>
                  {reasonInWords(e.reason)}
                  {e.memo && <div className="small text-body-secondary">{e.memo}</div>}
                </td>
                <td className={`text-end text-nowrap fw-semibold ${e.delta > 0 ? 'kb-delta-plus' : 'kb-delta-minus'}`}>
                  {e.delta > 0 ? '+' : '−'}
                  {formatPoints(Math.abs(e.delta))} {e.currency === 'gems' ? 'gems' : 'pts'}
                </td>
                <td className="text-end text-nowrap">
                  {formatPoints(e.balanceAfter)} {e.currency}
                </td>
              </tr>
            ))}
            {ledger && ledger.items.length === 0 && (
              <tr>
                <td colSpan={4} className="text-center text-body-secondary py-4">
                  Nothing yet. Chat on stream with your Kick account linked to start earning points.
                </td>
              </tr>
            )}
          </tbody>
        </Table>
      </div>
      {ledger && (
        <Pager
          label="Ledger pages"
          page={ledgerPage}
          total={ledger.total}
          pageSize={ledger.pageSize}
          onPage={setLedgerPage}
        />
      )}
    </section>
  );
}
