/**
 * A hunt's bonuses in the order bought, each with its payout and multiplier once opened: the public
 * page's table, and the admin's, whose payout cell of the bonus being opened is a field.
 */
import type { ReactNode } from 'react';
import type { HuntView } from '@kickback/common/hubs/hunt';
import { money, multiplier } from './format';

type Bonus = HuntView['bonuses'][number];

export function BonusTable({
  hunt,
  label = `Bonuses of ${hunt.name}`,
  empty = 'No bonuses yet.',
  payoutCell,
}: {
  hunt: HuntView;
  label?: string;
  empty?: string;
  /** The payout cell's content instead of the payout (null: the payout as usual). */
  payoutCell?(bonus: Bonus): ReactNode | null;
}) {
  if (hunt.bonuses.length === 0) return <p className="text-body-secondary">{empty}</p>;
  return (
    <div className="table-responsive" tabIndex={0} role="region" aria-label={label}>
      <table className="table table-sm align-middle kb-hunt-table" aria-label={label}>
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
              <td className="text-end">{payoutCell?.(b) ?? (b.payout === null ? '—' : money(b.payout))}</td>
              <td className="text-end">{multiplier(b.multiplier)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
