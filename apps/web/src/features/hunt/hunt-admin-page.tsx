/**
 * /admin/hunt (Admin dropdown): run a bonus hunt live — start it, add bonuses as they are bought,
 * open them one by one (type the payout, Enter, the next is focused), close `!guess`, finish it
 * (the closest guess is paid). The page shows what the server answered at once and follows the
 * live state for everything else.
 */
import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { toast } from 'react-toastify';
import { huntEndpoints } from '@kickback/common/http/hunt';
import type { HuntGuessView, HuntView } from '@kickback/common/hubs/hunt';
import { useEndpointMutation } from '../../lib/query';
import { HuntFigures } from './figures';
import { AddBonusForm, StartHuntForm } from './hunt-forms';
import { GuessWinner } from './guess-proof';
import { money } from './format';
import { OpenBonuses } from './open-bonuses';
import { useHunt } from './use-hunt';
import './hunt.css';

/** The newer of the live state and the last answer of this page's own calls. */
function useLatest(live: HuntView | null) {
  const [own, setOwn] = useState<HuntView | null>(null);
  const latest = !own ? live : !live || live.id !== own.id || live.version < own.version ? own : live;
  return [latest, setOwn] as const;
}

function Guesses({ hunt }: { hunt: HuntView }) {
  const { connection } = useHunt();
  const [list, setList] = useState<HuntGuessView[]>([]);
  useEffect(() => {
    const c = connection();
    if (!c) return;
    c.call('GetGuesses')
      .then(setList)
      .catch(() => undefined);
  }, [connection, hunt.version]);
  return (
    <section className="kb-card" aria-label="Guesses so far">
      <h2 className="h6">
        Guesses ({hunt.guessing.count}) · {hunt.guessing.state === 'open' ? 'open' : 'closed'}
      </h2>
      <GuessWinner hunt={hunt} />
      {hunt.guessing.hash && <p className="small text-break mb-2">Hash: {hunt.guessing.hash}</p>}
      <ol className="small mb-0 kb-hunt-guesses">
        {list.map((g) => (
          <li key={g.kickUsername}>
            {g.kickUsername}: {money(g.amount)}
          </li>
        ))}
      </ol>
    </section>
  );
}

function RunningHunt({ hunt, onChanged }: { hunt: HuntView; onChanged(view: HuntView): void }) {
  // Callbacks on the mutations: they still run when this part is replaced (a finished hunt).
  const close = useEndpointMutation(huntEndpoints.closeGuessing, {
    invalidates: [huntEndpoints.list],
    onSuccess: (view) => (toast.success('Guessing closed.'), onChanged(view)),
  });
  const finish = useEndpointMutation(huntEndpoints.finish, {
    invalidates: [huntEndpoints.list],
    onSuccess: (view) => (toast.success('Hunt finished.'), onChanged(view)),
  });
  const params = { huntId: hunt.id };
  const allOpened = hunt.bonuses.length > 0 && hunt.currentBonusId === null;
  return (
    <>
      <header className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h2 className="h4 mb-0">{hunt.name}</h2>
        <span className="text-body-secondary">start cost {money(hunt.startCost)}</span>
        <div className="ms-auto d-flex gap-2">
          {hunt.guessing.state === 'open' && (
            <Button variant="outline-warning" disabled={close.isPending} onClick={() => close.mutate({ params })}>
              Close guessing
            </Button>
          )}
          <Button
            variant={allOpened ? 'success' : 'outline-secondary'}
            disabled={!allOpened || finish.isPending}
            onClick={() => finish.mutate({ params })}
          >
            Finish hunt
          </Button>
        </div>
      </header>
      {hunt.guessing.state === 'open' && (
        <p className="small text-body-secondary">
          Guessing is open: opening the first bonus closes it (and publishes the hash of the guesses).
        </p>
      )}
      <HuntFigures hunt={hunt} />
      <div className="row g-4">
        <div className="col-lg-8">
          <AddBonusForm hunt={hunt} onChanged={onChanged} />
          <OpenBonuses hunt={hunt} onChanged={onChanged} />
        </div>
        <div className="col-lg-4">
          <Guesses hunt={hunt} />
          <p className="small mt-3">
            OBS browser source (1920×1080, transparent): <code>{`${window.location.origin}/overlay/hunt`}</code>
          </p>
        </div>
      </div>
    </>
  );
}

export default function HuntAdminPage() {
  const { state } = useHunt();
  const [hunt, setOwn] = useLatest(state);
  const running = hunt?.status === 'running' ? hunt : null;
  return (
    <section className="container-xl py-4">
      <h1 className="h3 mb-1">Run Bonus Hunt</h1>
      <p className="text-body-secondary mb-4">
        Viewers follow on <a href="/hunt">/hunt</a> and guess the total won with <code>!guess [AMOUNT]</code>.
      </p>
      {running ? (
        <RunningHunt hunt={running} onChanged={setOwn} />
      ) : (
        <>
          {hunt && hunt.status === 'finished' && (
            <div className="kb-card mb-3" aria-label="Last hunt">
              <strong>{hunt.name}</strong> finished: won {money(hunt.won)} for {money(hunt.totalCost)}.
              <GuessWinner hunt={hunt} />
            </div>
          )}
          <StartHuntForm onStarted={setOwn} />
        </>
      )}
    </section>
  );
}
