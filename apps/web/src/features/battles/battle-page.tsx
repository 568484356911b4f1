/**
 * /battle/{id}: a bonus-buy battle, live. The entry rules, the prize and the tie rule; Enter (or
 * `!enter` in chat) during registration and the entrant's own slot; then the match in play and the
 * bracket with every result as it is recorded, and the link to verify the draw.
 */
import { lazy, Suspense } from 'react';
import Button from 'react-bootstrap/Button';
import { Link, useParams } from 'react-router';
import { toast } from '../../lib/toast';
import { battleEndpoints, battleMessages } from '@kickback/common/http/battles';
import type { BattleState } from '@kickback/common/hubs/battle';
import { formatAmount } from '../../lib/format';
import { useEndpointMutation } from '../../lib/query';
import { LiveGameStage } from '../../components/live/live-game-stage';
import { useAuth } from '../../shared/auth/auth-context';
import { Bracket, CurrentMatch, statusText } from './bracket';
import { useBattle } from './use-battle';
import './battles.css';

// The slot form (and its form library) loads beside the battle, not before it draws
// (docs/benchmarks.md#first-load-budget-per-page).
const MySlot = lazy(() => import('./my-slot'));

function prizeText(state: BattleState): string {
  return state.prize.points !== null ? `${formatAmount(state.prize.points)} points` : (state.prize.item ?? '');
}

function Rules({ state }: { state: BattleState }) {
  const rules = [
    state.rules.site ? `a verified ${state.rules.site.name} link` : null,
    state.rules.minWager !== null && state.rules.site
      ? `a wager of at least ${formatAmount(state.rules.minWager)} on ${state.rules.site.name} this period`
      : null,
    state.rules.subsOnly ? 'a Kick subscription' : null,
  ].filter((r): r is string => r !== null);
  return (
    <p className="mb-1" data-testid="battle-rules">
      Who may enter: {rules.length === 0 ? 'everyone signed in' : rules.join(', ')} (excluded and banned accounts
      never).
    </p>
  );
}

function Entry({ state, battleId }: { state: BattleState; battleId: string }) {
  const { user, signIn } = useAuth();
  const enter = useEndpointMutation(battleEndpoints.enter);
  if (state.status !== 'registration') return null;
  const entered = user ? state.entrants.some((e) => e.userId === user.openId) : false;
  if (!user) {
    return (
      <p>
        <Button onClick={signIn}>Sign in to enter</Button> or type <code>!enter</code> in Kick chat.
      </p>
    );
  }
  if (entered) return <p className="text-success mb-1">You are in this battle.</p>;
  return (
    <p>
      <Button
        disabled={enter.isPending}
        onClick={() =>
          void enter.mutateAsync({ params: { id: battleId } }).then(
            () => toast.success(battleMessages.entered),
            () => undefined, // the API wrapper showed the server's reason
          )
        }
      >
        Enter the battle
      </Button>{' '}
      or type <code>!enter</code> in Kick chat.
    </p>
  );
}

export default function BattlePage() {
  const { id = '' } = useParams();
  const { user, signIn } = useAuth();
  const { view, state, retry } = useBattle(id, { restartKey: user?.openId ?? null });
  return (
    <LiveGameStage
      view={view}
      state={state}
      theme="kbb"
      privateTo="the entrants"
      isAuthenticated={user !== null}
      onSignIn={signIn}
      onRetry={retry}
    >
      {(battle) => <Battle state={battle} battleId={id} />}
    </LiveGameStage>
  );
}

function Battle({ state, battleId: id }: { state: BattleState; battleId: string }) {
  const drawn = state.seed !== null;
  return (
    <section className="container-xl py-4">
      <h1 className="h2 mb-1">{state.title}</h1>
      <p className="mb-1" data-testid="battle-status">
        {statusText[state.status]} · bracket of {state.size} · prize {prizeText(state)}
        {state.status === 'registration' && state.phaseEndsAt && (
          <> · registration closes {new Date(state.phaseEndsAt).toLocaleTimeString()}</>
        )}
      </p>
      <Rules state={state} />
      {state.winner && (
        <p className="h4 text-success" data-testid="battle-winner">
          Winner: {state.winner.username} · {prizeText(state)}
        </p>
      )}
      {state.status === 'cancelled' && <p className="text-danger">Cancelled: {state.cancelReason}</p>}
      <Entry state={state} battleId={id} />
      <Suspense fallback={null}>
        <MySlot state={state} battleId={id} />
      </Suspense>
      <CurrentMatch state={state} />
      {state.matches.length > 0 && <Bracket state={state} />}
      <p className="small text-body-secondary mt-3" data-testid="tie-rule">
        {state.tieRule}
      </p>
      <details className="mb-3">
        <summary>Entrants ({state.entrants.length})</summary>
        <ol className="small" data-testid="entrants">
          {state.entrants.map((e) => (
            <li key={e.userId}>
              {e.username}
              {e.slot && ` · ${e.slot}`}
            </li>
          ))}
        </ol>
      </details>
      <p className="small text-body-secondary">
        Seed hash <code className="text-break">{state.seedHash}</code>
        {drawn && (
          <>
            {' '}
            · <Link to={`/battle/${id}/verify`}>Verify the draw</Link>
          </>
        )}
      </p>
    </section>
  );
}
