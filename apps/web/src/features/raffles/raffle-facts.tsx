/** What the list and the raffle page say about a raffle: its state, prizes, price, tickets and odds. */
import Badge from 'react-bootstrap/Badge';
import type { RaffleSummary } from '@kickback/common/http/raffles';
import { formatAmount } from '../../lib/format';

export function raffleState(r: Pick<RaffleSummary, 'status' | 'opensAt' | 'closesAt'>, now = Date.now()): string {
  if (r.status === 'drawn') return 'Drawn';
  if (r.status === 'cancelled') return 'Cancelled';
  if (r.status === 'closed') return 'Closed: drawing';
  if (Date.parse(r.opensAt) > now) return `Opens ${new Date(r.opensAt).toLocaleString()}`;
  return `Open until ${new Date(r.closesAt).toLocaleString()}`;
}

export function isSelling(r: Pick<RaffleSummary, 'status' | 'opensAt' | 'closesAt'>, now = Date.now()): boolean {
  return r.status === 'open' && Date.parse(r.opensAt) <= now && now < Date.parse(r.closesAt);
}

export function prizeLine(r: Pick<RaffleSummary, 'prizes'>): string {
  return r.prizes
    .map((p) => (p.kind === 'points' ? `${(p.points ?? 0).toLocaleString('en-US')} points` : (p.item ?? '')))
    .join(' · ');
}

export function oddsText(odds: number | null): string {
  if (odds === null) return '—';
  return `${(odds * 100).toFixed(odds < 0.01 ? 2 : 1)}%`;
}

export function RaffleFacts({ raffle }: { raffle: RaffleSummary }) {
  return (
    <dl className="kb-raffle-facts small">
      <div>
        <dt>Status</dt>
        <dd>
          <Badge bg={raffle.status === 'open' ? 'success' : 'secondary'}>{raffleState(raffle)}</Badge>
        </dd>
      </div>
      <div>
        <dt>Ticket</dt>
        <dd>{formatAmount(raffle.ticketPrice)} pts</dd>
      </div>
      <div>
        <dt>Tickets sold</dt>
        <dd data-testid="tickets-sold">{raffle.ticketsSold}</dd>
      </div>
      {raffle.myTickets !== null && raffle.mine && (
        <>
          <div>
            <dt>Your tickets</dt>
            <dd data-testid="my-tickets">{raffle.myTickets}</dd>
          </div>
          <div>
            <dt>Bought</dt>
            <dd data-testid="my-bought">
              {raffle.mine.bought} / {raffle.maxTicketsPerUser}
            </dd>
          </div>
          {raffle.mine.free > 0 && (
            <div>
              <dt>Free from support</dt>
              <dd data-testid="my-free">{raffle.mine.free}</dd>
            </div>
          )}
          <div>
            <dt>Your odds</dt>
            <dd>{oddsText(raffle.odds)}</dd>
          </div>
        </>
      )}
    </dl>
  );
}
