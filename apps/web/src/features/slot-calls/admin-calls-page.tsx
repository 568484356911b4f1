/**
 * /admin/calls (Admin dropdown; Moderators too): run the slot call queue — open and close it, mark
 * a call played, skip or remove it (its cost refunded), clear the queue, pick a random call
 * (provably fair), and "Add to hunt" (the slot goes into the running bonus hunt with its caller).
 * Admins also set the rules and add slots to the catalogue.
 */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import { adminSlotCallEndpoints, catalogueSlotBody } from '@kickback/common/http/slot-calls';
import type { SlotCallsState, SlotCallView } from '@kickback/common/hubs/slot-calls';
import { FieldError, setServerErrors, useZodForm } from '../../lib/forms';
import { useEndpointMutation, useEndpointQuery } from '../../lib/query';
import { useAuth } from '../../shared/auth/auth-context';
import { CallTable } from './call-table';
import { RulesForm } from './rules-form';
import { useSlotCalls } from './use-slot-calls';
import './slot-calls.css';
import { countOf } from '@kickback/common/plural';

/** The newer of the live state and the last answer of this page's own calls. */
function useLatest(live: SlotCallsState | null) {
  const [own, setOwn] = useState<SlotCallsState | null>(null);
  const latest = !own ? live : !live || live.version < own.version ? own : live;
  return [latest, setOwn] as const;
}

function CallActions({ call, onDone }: { call: SlotCallView; onDone(state: SlotCallsState): void }) {
  const [bet, setBet] = useState('');
  const done = (answer: { state: SlotCallsState; message: string }) => (
    toast.success(answer.message),
    onDone(answer.state)
  );
  const resolve = useEndpointMutation(adminSlotCallEndpoints.resolve, { onSuccess: done });
  const hunt = useEndpointMutation(adminSlotCallEndpoints.addToHunt, { onSuccess: done });
  const params = { id: call.id };
  const busy = resolve.isPending || hunt.isPending;
  const betNumber = bet.trim() === '' ? Number.NaN : Number(bet);
  return (
    <div className="kb-calls-actions">
      <Button
        size="sm"
        variant="success"
        disabled={busy}
        onClick={() => resolve.mutate({ params, body: { outcome: 'played' } })}
      >
        Played
      </Button>
      <Button
        size="sm"
        variant="outline-secondary"
        disabled={busy}
        onClick={() => resolve.mutate({ params, body: { outcome: 'skipped' } })}
      >
        Skip
      </Button>
      <Button
        size="sm"
        variant="outline-danger"
        disabled={busy}
        onClick={() => resolve.mutate({ params, body: { outcome: 'removed' } })}
      >
        Remove
      </Button>
      <Form.Control
        size="sm"
        className="kb-calls-bet"
        type="number"
        min={0.01}
        step={0.01}
        inputMode="decimal"
        placeholder="Bet ($)"
        aria-label={`Bet for ${call.slot}`}
        value={bet}
        onChange={(e) => setBet(e.target.value)}
      />
      <Button
        size="sm"
        variant="primary"
        disabled={busy || !(betNumber > 0)}
        onClick={() => hunt.mutate({ params, body: { bet: betNumber } })}
      >
        Add to hunt
      </Button>
    </div>
  );
}

function CatalogueForm() {
  const list = useEndpointQuery(adminSlotCallEndpoints.catalogue);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useZodForm(catalogueSlotBody, { defaultValues: { name: '', provider: '' } });
  const add = useEndpointMutation(adminSlotCallEndpoints.addToCatalogue, {
    invalidates: [adminSlotCallEndpoints.catalogue],
  });
  const submit = handleSubmit(async (body) => {
    try {
      await add.mutateAsync({ body });
      toast.success(`${body.name} added to the catalogue.`);
      reset();
    } catch (err) {
      setServerErrors(err, setError, ['name', 'provider'] as const);
    }
  });
  return (
    <Form className="kb-card mt-4" onSubmit={(e) => void submit(e)} aria-label="Add to the catalogue" noValidate>
      <h2 className="h5">Catalogue</h2>
      <p className="small text-body-secondary">
        {list.data
          ? `${countOf(list.data.shipped, 'slot')} ${list.data.shipped === 1 ? 'ships' : 'ship'} with Kickback`
          : 'Popular slots ship with Kickback'}
        ; calls match them whatever the spelling. Add the ones your chat plays that are missing.
      </p>
      <div className="row g-2 align-items-start">
        <Form.Group className="col-md-5" controlId="catalogue-name">
          <Form.Label>Slot</Form.Label>
          <Form.Control
            maxLength={60}
            {...register('name')}
            isInvalid={Boolean(errors.name)}
            aria-describedby="catalogue-name-error"
          />
          <FieldError id="catalogue-name-error" message={errors.name?.message} />
        </Form.Group>
        <Form.Group className="col-md-5" controlId="catalogue-provider">
          <Form.Label>Provider</Form.Label>
          <Form.Control
            maxLength={60}
            {...register('provider')}
            isInvalid={Boolean(errors.provider)}
            aria-describedby="catalogue-provider-error"
          />
          <FieldError id="catalogue-provider-error" message={errors.provider?.message} />
        </Form.Group>
        <div className="col-md-2 kb-form-button-cell">
          <Button type="submit" className="w-100" disabled={isSubmitting}>
            Add slot
          </Button>
        </div>
      </div>
      {list.data && list.data.added.length > 0 && (
        <ul className="small mt-3 mb-0" aria-label="Slots added">
          {list.data.added.map((s) => (
            <li key={s.name}>
              {s.name} ({s.provider})
            </li>
          ))}
        </ul>
      )}
    </Form>
  );
}

export default function AdminCallsPage() {
  const { state: live } = useSlotCalls();
  const [state, setOwn] = useLatest(live);
  const isAdmin = useAuth().user?.role === 'Admin';
  const done = (answer: { state: SlotCallsState; message: string }) => (
    toast.success(answer.message),
    setOwn(answer.state)
  );
  const open = useEndpointMutation(adminSlotCallEndpoints.open, { onSuccess: done });
  const close = useEndpointMutation(adminSlotCallEndpoints.close, { onSuccess: done });
  const pick = useEndpointMutation(adminSlotCallEndpoints.pick, { onSuccess: done });
  const clear = useEndpointMutation(adminSlotCallEndpoints.clear, { onSuccess: done });
  return (
    <section className="container-xl py-4">
      <h1 className="h3 mb-1">Slot calls</h1>
      <p className="text-body-secondary mb-4">
        Viewers call slots with <code>!sr [SLOT]</code> or <code>!call [SLOT]</code>; the broadcaster or a Kick
        moderator can also type <code>!calls open</code> and <code>!calls close</code>. Viewers follow on{' '}
        <a href="/calls">/calls</a>.
      </p>
      {!state ? (
        <p className="kb-card">Loading the queue…</p>
      ) : (
        <>
          <header className="d-flex flex-wrap align-items-center gap-2 mb-3">
            <span className={`badge ${state.open ? 'text-bg-success' : 'text-bg-secondary'}`} data-testid="calls-state">
              {state.open ? 'Open' : 'Closed'}
            </span>
            <span>
              {state.queue.length} waiting of at most {state.rules.maxQueue}
            </span>
            <div className="ms-auto d-flex flex-wrap gap-2">
              {state.open ? (
                <Button variant="outline-warning" disabled={close.isPending} onClick={() => close.mutate({})}>
                  Close calls
                </Button>
              ) : (
                <Button variant="success" disabled={open.isPending} onClick={() => open.mutate({})}>
                  Open calls
                </Button>
              )}
              <Button
                variant="outline-primary"
                disabled={pick.isPending || state.queue.every((c) => c.status !== 'queued')}
                onClick={() => pick.mutate({})}
              >
                Pick a random call
              </Button>
              <Button
                variant="outline-danger"
                disabled={clear.isPending || state.queue.length === 0}
                onClick={() => {
                  if (window.confirm('Clear the whole queue? Paid calls are refunded.')) clear.mutate({});
                }}
              >
                Clear queue
              </Button>
            </div>
          </header>
          {state.queue.length === 0 ? (
            <p className="kb-card text-body-secondary">The queue is empty.</p>
          ) : (
            <CallTable
              calls={state.queue}
              label="Slot call queue"
              numbered
              actions={(c) => <CallActions call={c} onDone={setOwn} />}
            />
          )}
          <p className="small text-body-secondary">
            Random picks use the giveaway&apos;s provably fair draw: the next pick&apos;s seed hash is{' '}
            <code className="text-break">{state.nextSeedHash ?? 'published when calls open'}</code>
            {state.lastPick && (
              <>
                {' '}
                · last pick: {state.lastPick.slot} ({state.lastPick.caller}),{' '}
                <a href={`/calls/picks/${state.lastPick.id}/verify`}>verify</a>
              </>
            )}
            . OBS browser source (1920×1080, transparent): <code>{`${window.location.origin}/overlay/calls`}</code>
          </p>
          <div className="mt-4">
            {isAdmin ? (
              <RulesForm rules={state.rules} onSaved={setOwn} />
            ) : (
              <p className="kb-card small">Only an Admin changes the rules, the cost and the payout.</p>
            )}
          </div>
          {isAdmin && <CatalogueForm />}
          <h2 className="h5 mt-4">Recent calls</h2>
          {state.recent.length === 0 ? (
            <p className="text-body-secondary">None yet.</p>
          ) : (
            <CallTable calls={state.recent} label="Recent slot calls" />
          )}
        </>
      )}
    </section>
  );
}
