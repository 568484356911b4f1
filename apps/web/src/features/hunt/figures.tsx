/** The hunt's totals as labelled tiles; the admin page, /hunt and the overlay share them. */
import type { HuntView } from '@kickback/common/hubs/hunt';
import { money, multiplier, signedMoney } from './format';

export function HuntFigures({ hunt, className = 'kb-hunt-figures' }: { hunt: HuntView; className?: string }) {
  const tiles: Array<[string, string, string?]> = [
    ['Cost', money(hunt.totalCost)],
    ['Won', money(hunt.won)],
    ['Profit', signedMoney(hunt.profit), hunt.profit >= 0 ? 'kb-hunt-up' : 'kb-hunt-down'],
    ['Break-even', multiplier(hunt.breakEven)],
    ['Average', multiplier(hunt.average)],
    ['Best', multiplier(hunt.best)],
    ['Worst', multiplier(hunt.worst)],
    ['Opened', `${hunt.openedCount}/${hunt.bonuses.length}`],
  ];
  return (
    <dl className={className} aria-label="Hunt totals">
      {tiles.map(([label, value, tone]) => (
        <div key={label} className="kb-hunt-tile">
          <dt>{label}</dt>
          <dd className={tone} data-figure={label}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
