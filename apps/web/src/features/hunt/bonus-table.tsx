/** A hunt's bonuses in the order bought, each with its payout and multiplier once opened. */
import type { HuntView } from '@kickback/common/hubs/hunt';
import { money, multiplier } from './format';

export function BonusTable({ hunt }: { hunt: HuntView }) {
  if (hunt.bonuses.length === 0) return <p className="text-body-secondary">No bonuses yet.</p>;
  return (
    <div className="table-responsive">
      <table className="table table-sm align-middle kb-hunt-table" aria-label={`Bonuses of ${hunt.name}`}>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Slot</th>
            <th scope="col">Provider</th>
            <th scope="col" className="text-end">
              Bet
            </th>
            <th scope="col" className="text-end">
              Payout
            </th>
            <th scope="col" className="text-end">
              Multiplier
            </th>
          </tr>
        </thead>
        <tbody>
          {hunt.bonuses.map((b) => (
            <tr key={b.id} className={b.id === hunt.currentBonusId ? 'table-active' : undefined}>
              <td>{b.position}</td>
              <td>
                {b.slot}
                {b.calledBy && <span className="small text-body-secondary"> · called by {b.calledBy}</span>}
              </td>
              <td>{b.provider || '—'}</td>
              <td className="text-end">{money(b.bet)}</td>
              <td className="text-end">{b.payout === null ? '—' : money(b.payout)}</td>
              <td className="text-end">{multiplier(b.multiplier)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
