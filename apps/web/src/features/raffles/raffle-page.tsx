/**
 * /raffles/{id}: one raffle — its prizes in draw order, rules, tickets sold, your tickets and
 * odds, buying; when it is drawn while open here, the wheel spins once per prize; a drawn raffle
 * shows its winners, the revealed seed and the verify link.
 */
import { useCallback, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { raffleEndpoints } from '@kickback/common/http/raffles';
import type { RaffleChanged, RaffleDrawn } from '@kickback/common/hubs/raffles';
import { ApiError } from '../../lib/api';
import { endpointKey, useEndpointQuery } from '../../lib/query';
import { BuyTickets } from './buy-tickets';
import { isSelling, prizeLine, RaffleFacts } from './raffle-facts';
import { RaffleWheel } from './raffle-wheel';
import { useRafflesHub } from './use-raffles-hub';
import './raffles.css';

export default function RafflePage() {
  const { id = '' } = useParams();
  const query = useEndpointQuery(raffleEndpoints.get, { params: { id } }, { retry: false });
  const raffle = query.data;
  const client = useQueryClient();
  const [drawn, setDrawn] = useState<RaffleDrawn | null>(null);
  const refresh = useCallback(
    () => void client.invalidateQueries({ queryKey: endpointKey(raffleEndpoints.get) }),
    [client],
  );
  const onChanged = useCallback((c: RaffleChanged) => c.id === id && refresh(), [id, refresh]);
  const onDrawn = useCallback(
    (d: RaffleDrawn) => {
      if (d.raffleId !== id) return;
      setDrawn(d);
      refresh();
    },
    [id, refresh],
  );
  useRafflesHub({ onChanged, onDrawn });

  if (query.error) {
    return (
      <section className="container py-4">
        <h1 className="h3">Raffle</h1>
        <p className="text-danger">
          {query.error instanceof ApiError ? query.error.serverMessage : 'Could not load the raffle.'}
        </p>
        <Link to="/raffles">All raffles</Link>
      </section>
    );
  }
  if (!raffle) return <p className="container py-4">Loading…</p>;
  const rules = [
    raffle.requireKick && 'a linked Kick account',
    raffle.requireVerifiedPartner && 'a verified partner link',
    raffle.subsOnly && 'a Kick subscription',
  ].filter(Boolean);
  return (
    <section className="container py-4">
      <p className="mb-2">
        <Link to="/raffles">← All raffles</Link>
      </p>
      <h1 className="h2">{raffle.title}</h1>
      {raffle.imageUrl && <img className="kb-raffle-hero mb-3" src={raffle.imageUrl} alt="" />}
      {raffle.description && <p>{raffle.description}</p>}
      <p>
        <strong>Prizes, in draw order:</strong> {prizeLine(raffle)}
      </p>
      {rules.length > 0 && <p className="small">To enter you need {rules.join(', ')}.</p>}
      <div className="kb-card p-3 mb-3">
        <RaffleFacts raffle={raffle} />
      </div>
      {isSelling(raffle) && raffle.sellTickets && <BuyTickets raffle={raffle} />}
      {drawn ? (
        <RaffleWheel drawn={drawn} spin />
      ) : (
        raffle.winners.length > 0 && (
          <ol className="kb-raffle-winners" data-testid="raffle-winners">
            {raffle.winners.map((w) => (
              <li key={w.position}>
                <strong>{w.username}</strong> wins {w.prize}
              </li>
            ))}
          </ol>
        )
      )}
      <div className="small text-body-secondary mt-3">
        {raffle.seedHash && (
          <div>
            Seed hash (published at opening): <code className="text-break">{raffle.seedHash}</code>
          </div>
        )}
        {raffle.snapshotHash && (
          <div>
            Ticket snapshot hash: <code className="text-break">{raffle.snapshotHash}</code>
          </div>
        )}
        {raffle.status === 'drawn' && (
          <div>
            <Link to={`/raffles/${raffle.id}/verify`}>Verify this draw</Link>
          </div>
        )}
      </div>
    </section>
  );
}
