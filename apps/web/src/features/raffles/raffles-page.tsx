/** /raffles: the open raffles (closing soonest first) and the past ones with their winners. */
import { useCallback } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { raffleEndpoints, type RaffleSummary } from '@kickback/common/http/raffles';
import { endpointKey, useEndpointQuery } from '../../lib/query';
import { prizeLine, RaffleFacts } from './raffle-facts';
import { useRafflesHub } from './use-raffles-hub';
import './raffles.css';

function RaffleCard({ raffle }: { raffle: RaffleSummary }) {
  return (
    <article className="kb-card kb-raffle-card p-3" aria-label={raffle.title} data-testid="raffle-card">
      {raffle.imageUrl && <img src={raffle.imageUrl} alt="" />}
      <h3 className="h5 mb-0">
        <Link to={`/raffles/${raffle.id}`}>{raffle.title}</Link>
      </h3>
      <p className="mb-0">{prizeLine(raffle)}</p>
      <RaffleFacts raffle={raffle} />
      {raffle.winners.length > 0 && (
        <p className="small mb-0">
          Winners: {raffle.winners.map((w) => `${w.username} (${w.prize})`).join(', ')} ·{' '}
          <Link to={`/raffles/${raffle.id}/verify`}>verify</Link>
        </p>
      )}
    </article>
  );
}

export default function RafflesPage() {
  const list = useEndpointQuery(raffleEndpoints.list);
  const client = useQueryClient();
  const refresh = useCallback(
    () => void client.invalidateQueries({ queryKey: endpointKey(raffleEndpoints.list) }),
    [client],
  );
  useRafflesHub({ onChanged: refresh, onDrawn: refresh });
  const open = list.data?.filter((r) => r.status === 'open' || r.status === 'closed') ?? [];
  const past = list.data?.filter((r) => r.status === 'drawn' || r.status === 'cancelled') ?? [];
  const section = (title: string, items: RaffleSummary[], empty: string) => (
    <>
      <h2 className="h4 mt-4">{title}</h2>
      {items.length === 0 ? (
        <p className="text-body-secondary">{empty}</p>
      ) : (
        <div className="row g-3">
          {items.map((r) => (
            <div key={r.id} className="col-12 col-md-6 col-lg-4">
              <RaffleCard raffle={r} />
            </div>
          ))}
        </div>
      )}
    </>
  );
  return (
    <section className="container-xl py-4">
      <h1 className="h2">Raffles</h1>
      <p className="text-body-secondary">
        Buy tickets with your points; each ticket is one more chance. Every draw is provably fair: check it on its
        verify page.
      </p>
      {list.isPending && <p>Loading…</p>}
      {list.data && section('Open raffles', open, 'No raffle is open right now.')}
      {list.data && section('Past raffles', past, 'No past raffles yet.')}
    </section>
  );
}
