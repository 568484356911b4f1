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
  ownBox,
}: {
  amounts: DealOrNoDealState['amounts'];
  side: 'left' | 'right';
  /** The amount just revealed: its row flashes as it is struck. */
  highlight: number | null;
  /** Once the game ended: what the owner's box held, shown lit instead of struck (once). */
  ownBox: number | null;
}) {
  const lit = ownBox === null ? -1 : amounts.findIndex((a) => a.value === ownBox);
  return (
    <ol className={`dond-board dond-board-${side}`} aria-label={side === 'left' ? 'Smaller amounts' : 'Larger amounts'}>
      {amounts.map((a, i) =>
        i === lit ? (
          <li
            key={`${side}-${i}`}
            className="dond-amount is-own"
            aria-label={`${dollars(a.value)}, in the player's box`}
          >
            {dollars(a.value)}
          </li>
        ) : (
          <li
            key={`${side}-${i}`}
            className={`dond-amount${a.isOpened ? ' is-out' : ''}${a.isOpened && a.value === highlight ? ' is-flash' : ''}`}
            aria-label={`${dollars(a.value)}${a.isOpened ? ', gone' : ''}`}
          >
            {a.isOpened ? <s>{dollars(a.value)}</s> : dollars(a.value)}
          </li>
        ),
      )}
    </ol>
  );
}
