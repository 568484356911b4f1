/**
 * /calls (public): the slot call queue, live — what is up next, who called what, and the calls
 * that left the queue (played, in the hunt with its multiplier, skipped) — with the rules in force.
 */
import { formatAmount } from '../../lib/format';
import { CallTable } from './call-table';
import { useSlotCalls } from './use-slot-calls';
import './slot-calls.css';
import { countOf } from '@kickback/common/plural';

export default function CallsPage() {
  const { state } = useSlotCalls();
  const rules = state?.rules;
  return (
    <section className="container-xl py-4">
      <h1 className="h3 mb-1">Slot calls</h1>
      <p className="text-body-secondary mb-4">
        Tell the streamer what to play: type <code>!sr [SLOT]</code> in the Kick chat while calls are open. A call that
        goes into the bonus hunt and pays well can pay you points.
      </p>
      {!state ? (
        <p className="kb-card">Loading the queue…</p>
      ) : (
        <>
          <div className="kb-card mb-4" aria-label="Queue status">
            <p className="mb-1">
              <span className={`badge ${state.open ? 'text-bg-success' : 'text-bg-secondary'} me-2`}>
                {state.open ? 'Open' : 'Closed'}
              </span>
              <span data-testid="calls-count">
                {state.queue.length} call{state.queue.length === 1 ? '' : 's'} waiting
              </span>
              {state.nextUp && (
                <>
                  {' '}
                  · next up: <strong>{state.nextUp.slot}</strong> by {state.nextUp.caller}
                </>
              )}
            </p>
            {rules && (
              <p className="small text-body-secondary mb-0">
                {rules.maxPerViewer} open call{rules.maxPerViewer === 1 ? '' : 's'} per viewer
                {rules.cooldownSeconds > 0 && ` · ${rules.cooldownSeconds} s between calls`}
                {rules.cost > 0 ? ` · a call costs ${formatAmount(rules.cost)} points (refunded if not played)` : ''}
                {rules.linkedOnly && ' · linked Kick accounts only'}
                {rules.subsOnly && ' · subscribers only'}
                {rules.payoutPoints > 0 &&
                  ` · a called slot in the hunt paying ${formatAmount(rules.payoutMultiplier)}x or more pays its caller ${formatAmount(rules.payoutPoints)} points`}
                {rules.blacklist.length > 0 && ` · not taken: ${rules.blacklist.join(', ')}`}
              </p>
            )}
          </div>
          <h2 className="h5">Queue</h2>
          {state.queue.length === 0 ? (
            <p className="text-body-secondary">The queue is empty.</p>
          ) : (
            <CallTable calls={state.queue} label="Slot call queue" numbered />
          )}
          {state.lastPick && (
            <p className="small text-body-secondary">
              Last random pick: {state.lastPick.slot} by {state.lastPick.caller} among{' '}
              {countOf(state.lastPick.among, 'call')} —{' '}
              <a href={`/calls/picks/${state.lastPick.id}/verify`}>verify it</a>.
            </p>
          )}
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
