/** /battles: every bonus-buy battle, newest first, with its state and winner. */
import { Link } from 'react-router';
import { battleEndpoints } from '@kickback/common/http/battles';
import { useEndpointQuery } from '../../lib/query';
import { statusText } from './bracket';
import './battles.css';

export default function BattlesPage() {
  const list = useEndpointQuery(battleEndpoints.list, {}, { refetchInterval: 15_000 });
  return (
    <section className="container-xl py-4">
      <h1 className="h2">Bonus-buy battles</h1>
      <p className="text-body-secondary">
        Enter with <code>!enter</code> in chat or on the battle&apos;s page, pick your slot, and watch the bracket play
        out on stream: the higher multiplier goes on. Every bracket draw is provably fair.
      </p>
      {list.isPending && <p>Loading…</p>}
      {list.data?.length === 0 && <p className="text-body-secondary">No battles yet.</p>}
      <div className="row g-3">
        {list.data?.map((b) => (
          <div key={b.id} className="col-12 col-md-6 col-lg-4">
            <article className="kb-card p-3" aria-label={b.title} data-testid="battle-card">
              <h2 className="h5 mb-1">
                <Link to={`/battle/${b.id}`}>{b.title}</Link>
              </h2>
              <p className="mb-0 small">
                {statusText[b.status]} · bracket of {b.size} · {b.entrants} entered
                {b.winner && ` · winner ${b.winner}`}
              </p>
            </article>
          </div>
        ))}
      </div>
    </section>
  );
}
