/** A list of slot calls: slot (flagged when not in the catalogue), provider, caller, status; actions for staff. */
import type { ReactNode } from 'react';
import type { SlotCallView } from '@kickback/common/hubs/slot-calls';
import { formatAmount } from '../../lib/format';

const statusText: Record<SlotCallView['status'], string> = {
  queued: 'In the queue',
  playing: 'Next up',
  played: 'Played',
  hunted: 'In the hunt',
  skipped: 'Skipped',
  removed: 'Removed',
  cleared: 'Cleared',
};

function outcome(call: SlotCallView): string {
  const parts = [statusText[call.status]];
  if (call.multiplier !== null) parts.push(`${formatAmount(call.multiplier)}x`);
  if (call.payout !== null) parts.push(`caller paid ${formatAmount(call.payout)} pts`);
  if (call.refunded) parts.push('refunded');
  return parts.join(' · ');
}

export function CallTable({
  calls,
  label,
  numbered,
  actions,
}: {
  calls: SlotCallView[];
  label: string;
  numbered?: boolean;
  actions?: (call: SlotCallView) => ReactNode;
}) {
  return (
    <div className="table-responsive">
      <table className="table table-sm align-middle kb-calls-table" aria-label={label}>
        <thead>
          <tr>
            {numbered && <th scope="col">#</th>}
            <th scope="col">Slot</th>
            <th scope="col">Provider</th>
            <th scope="col">Called by</th>
            <th scope="col">Status</th>
            {actions && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {calls.map((c, i) => (
            <tr key={c.id} className={c.status === 'playing' ? 'table-active' : undefined} data-testid="slot-call">
              {numbered && <td>{i + 1}</td>}
              <td>
                <span className="fw-semibold">{c.slot}</span>
                {c.flagged && (
                  <span className="badge text-bg-warning ms-2" title="Not in the slot catalogue: accepted as typed">
                    not in catalogue
                  </span>
                )}
                {c.typed && <div className="small text-body-secondary">typed “{c.typed}”</div>}
              </td>
              <td>{c.provider ?? '—'}</td>
              <td>{c.caller}</td>
              <td>{outcome(c)}</td>
              {actions && <td>{actions(c)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
