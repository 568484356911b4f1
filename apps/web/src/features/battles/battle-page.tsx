/**
 * /battle/{id}: a bonus-buy battle, live. The entry rules, the prize and the tie rule; Enter (or
 * `!enter` in chat) during registration and the entrant's own slot; then the match in play and the
 * bracket with every result as it is recorded, and the link to verify the draw.
 */
import { useEffect } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link, useParams } from 'react-router';
import { toast } from 'react-toastify';
import { MAX_SLOT_LENGTH } from '@kickback/common/games/battle';
import { battleEndpoints, battleMessages, slotBody } from '@kickback/common/http/battles';
import type { BattleState } from '@kickback/common/hubs/battle';
import { FieldError, setServerErrors, useZodForm } from '../../lib/forms';
import { formatAmount } from '../../lib/format';
import { useEndpointMutation } from '../../lib/query';
import { LiveGameStage } from '../../components/live/live-game-stage';
import { useAuth } from '../../shared/auth/auth-context';
import { Bracket, CurrentMatch, statusText } from './bracket';
import { useBattle } from './use-battle';
import './battles.css';

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

function MySlot({ state, battleId }: { state: BattleState; battleId: string }) {
  const { user } = useAuth();
  const me = user ? state.entrants.find((e) => e.userId === user.openId) : undefined;
  const form = useZodForm(slotBody, { defaultValues: { slot: me?.slot ?? '' } });
  const save = useEndpointMutation(battleEndpoints.slot);
  const saved = me?.slot ?? '';
  useEffect(() => form.reset({ slot: saved }), [saved, form]);
  if (!me || state.status === 'finished' || state.status === 'cancelled') return null;
  const submit = form.handleSubmit(async (body) => {
    try {
      await save.mutateAsync({ params: { id: battleId }, body });
      toast.success(battleMessages.slotSaved);
    } catch (err) {
      setServerErrors(err, form.setError, ['slot']);
    }
  });
  const error = form.formState.errors.slot?.message;
  return (
    <Form className="d-flex gap-2 align-items-start my-2" onSubmit={(e) => void submit(e)} noValidate>
      <Form.Group controlId="battle-my-slot" className="flex-grow-1">
        <Form.Label className="mb-1">My slot</Form.Label>
        <Form.Control
          maxLength={MAX_SLOT_LENGTH}
          placeholder="e.g. Gates of Olympus"
          isInvalid={!!error}
          aria-describedby="battle-my-slot-error"
          {...form.register('slot')}
        />
        <FieldError id="battle-my-slot-error" message={error} />
      </Form.Group>
      <Button type="submit" className="mt-4" disabled={save.isPending}>
        Save slot
      </Button>
    </Form>
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
      <MySlot state={state} battleId={id} />
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
