/** One side of the board: 12 of the 24 amounts, smallest first, opened ones struck through. */
import type { DealOrNoDealState } from '@kickback/common/hubs/deal-or-no-deal';
import { formatAmount } from '../../lib/format';

export function dollars(value: number): string {
  return `$${formatAmount(value)}`;
}

export function BoardColumn({
  amounts,
  side,
  highlight,
}: {
  amounts: DealOrNoDealState['amounts'];
  side: 'left' | 'right';
  /** The amount just revealed: its row flashes as it is struck. */
  highlight: number | null;
}) {
  return (
    <ol className={`dond-board dond-board-${side}`} aria-label={side === 'left' ? 'Smaller amounts' : 'Larger amounts'}>
      {amounts.map((a, i) => (
        <li
          key={`${side}-${i}`}
          className={`dond-amount${a.isOpened ? ' is-out' : ''}${a.isOpened && a.value === highlight ? ' is-flash' : ''}`}
          aria-label={`${dollars(a.value)}${a.isOpened ? ', gone' : ''}`}
        >
          {a.isOpened ? <s>{dollars(a.value)}</s> : dollars(a.value)}
        </li>
      ))}
    </ol>
  );
}
