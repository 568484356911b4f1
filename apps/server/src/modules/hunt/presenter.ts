/** A hunt's rows → the public view, with its figures from the shared arithmetic. */
import { huntFigures, multiplierX } from '@kickback/common/hunt/arithmetic';
import type { HuntGuessView, HuntView } from '@kickback/common/hubs/hunt';
import { centsToNumber, decimalToNumber, toCents } from '@kickback/common/money';
import { shownName, shownNameOrNull } from '@kickback/common/shown-name';
import type { GuessRow, HuntRecord } from './repository';

const cents = (decimal: string) => toCents(decimalToNumber(decimal));
/** Hundredths of x → a number with 2 decimals. */
const x = (hundredths: bigint | null) => (hundredths === null ? null : centsToNumber(hundredths));

export function guessViews(rows: readonly GuessRow[]): HuntGuessView[] {
  return rows.map((g) => ({
    kickUsername: g.kickUsername,
    amount: decimalToNumber(g.amount),
    guessedAt: g.guessedAt.toISOString(),
  }));
}

export function huntViewOf(record: HuntRecord, revealed: readonly GuessRow[] | null, now: Date): HuntView {
  const { hunt, bonuses } = record;
  const figures = huntFigures(
    cents(hunt.startCost),
    bonuses.map((b) => ({
      betCents: cents(b.bet),
      costCents: cents(b.cost),
      payoutCents: b.payout === null ? null : cents(b.payout),
    })),
  );
  const winnerAmount = hunt.winnerAmount === null ? null : cents(hunt.winnerAmount);
  const distance =
    winnerAmount === null
      ? null
      : winnerAmount > figures.wonCents
        ? winnerAmount - figures.wonCents
        : figures.wonCents - winnerAmount;
  return {
    id: hunt.id,
    version: hunt.version,
    phaseEndsAt: null,
    serverTime: now.toISOString(),
    name: shownName(hunt.name),
    status: hunt.status,
    startCost: decimalToNumber(hunt.startCost),
    totalCost: centsToNumber(figures.totalCostCents),
    won: centsToNumber(figures.wonCents),
    profit: centsToNumber(figures.profitCents),
    openedCount: figures.openedCount,
    breakEven: x(figures.breakEvenX),
    best: x(figures.bestX),
    worst: x(figures.worstX),
    average: x(figures.averageX),
    bonuses: bonuses.map((b) => ({
      id: String(b.id),
      position: b.position,
      slot: shownName(b.slot),
      provider: shownName(b.provider),
      bet: decimalToNumber(b.bet),
      cost: decimalToNumber(b.cost),
      payout: b.payout === null ? null : decimalToNumber(b.payout),
      multiplier: b.payout === null ? null : x(multiplierX(cents(b.payout), cents(b.bet))),
      calledBy: shownNameOrNull(b.calledBy),
      openedAt: b.openedAt?.toISOString() ?? null,
    })),
    currentBonusId: bonuses.find((b) => b.payout === null)?.id.toString() ?? null,
    guessing: {
      state: hunt.guessing,
      count: record.guessCount,
      prize: decimalToNumber(hunt.guessPrize),
      closedAt: hunt.guessingClosedAt?.toISOString() ?? null,
      hash: hunt.guessesHash,
      revealed: hunt.status === 'finished' && revealed ? guessViews(revealed) : null,
      winner:
        hunt.winnerKickUsername !== null && winnerAmount !== null && distance !== null
          ? {
              kickUsername: shownName(hunt.winnerKickUsername),
              amount: centsToNumber(winnerAmount),
              distance: centsToNumber(distance),
              prize: decimalToNumber(hunt.guessPrize),
              paid: hunt.prizeLedgerId !== null,
              held: record.prizeHeld,
            }
          : null,
    },
    createdAt: hunt.createdAt.toISOString(),
    finishedAt: hunt.finishedAt?.toISOString() ?? null,
  };
}
