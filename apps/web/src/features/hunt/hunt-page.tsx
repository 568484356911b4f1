/**
 * /hunt (public): the running bonus hunt, live, and the finished hunts, each with its full list of
 * bonuses, its `!guess` winner and the check of its published guess hash.
 */
import { useEffect } from 'react';
import { huntEndpoints } from '@kickback/common/http/hunt';
import type { HuntView } from '@kickback/common/hubs/hunt';
import { useEndpointQuery } from '../../lib/query';
import { BonusTable } from './bonus-table';
import { HuntFigures } from './figures';
import { GuessProof } from './guess-proof';
import { money } from './format';
import { useHunt } from './use-hunt';
import './hunt.css';

function HuntCard({ hunt, live }: { hunt: HuntView; live?: boolean }) {
  const when = new Date(hunt.finishedAt ?? hunt.createdAt).toLocaleString();
  return (
    <article className="kb-card mb-4" aria-label={hunt.name}>
      <header className="d-flex flex-wrap align-items-baseline gap-2 mb-3">
        <h2 className="h5 mb-0">{hunt.name}</h2>
        {live ? (
          <span className="badge text-bg-danger">Live</span>
        ) : (
          <span className="text-body-secondary small">finished {when}</span>
        )}
        <span className="text-body-secondary small ms-auto">start cost {money(hunt.startCost)}</span>
      </header>
      <HuntFigures hunt={hunt} />
      <BonusTable hunt={hunt} />
      <GuessProof hunt={hunt} />
    </article>
  );
}

export default function HuntPage() {
  const { state } = useHunt();
  const list = useEndpointQuery(huntEndpoints.list);
  const { refetch } = list;
  // The past list follows the live hunt's end (and a new one's start).
  const phase = state ? `${state.id}:${state.status}` : null;
  useEffect(() => {
    if (phase) void refetch();
  }, [phase, refetch]);
  const current = state?.status === 'running' ? state : null;
  const past = list.data?.past ?? [];
  return (
    <section className="container-xl py-4">
      <h1 className="h3 mb-1">Bonus Hunt</h1>
      <p className="text-body-secondary mb-4">
        The streamer buys bonuses, then opens them one by one. Guess the total won with <code>!guess [AMOUNT]</code> in
        chat while guessing is open: the closest guess wins the prize.
      </p>
      {current ? <HuntCard hunt={current} live /> : <p className="kb-card">No hunt is running right now.</p>}
      <h2 className="h4 mt-5 mb-3">Past hunts</h2>
      {past.length === 0 && <p className="text-body-secondary">No finished hunts yet.</p>}
      {past.map((h) => (
        <HuntCard key={h.id} hunt={h} />
      ))}
    </section>
  );
}
