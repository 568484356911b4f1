/** Pieces of a board row shared by the podium and the table. */
import { lazy, Suspense, useState } from 'react';
import { FaCircleCheck, FaCircleXmark, FaIdCard } from 'react-icons/fa6';
import type { LeaderboardEntry, RewardUnit } from '@kickback/common/http/leaderboards';
import { messages } from '@kickback/common/messages';
import { CurrencyIcon } from '../../components/ui/currency-icon';
import { formatAmount, formatWhole } from '../../lib/format';

/** Green tick when the player is active (on the code), red cross when not. */
export function ActiveMark({ active }: { active: boolean }) {
  return active ? (
    <FaCircleCheck className="kb-active-mark is-active" role="img" aria-label="Active" title="Active" />
  ) : (
    <FaCircleXmark className="kb-active-mark is-inactive" role="img" aria-label="Not active" title="Not active" />
  );
}

/** "$12,345" (no decimals), or a dash when the partner did not report it. */
export function wageredText(amount: number | null): string {
  return amount === null ? '—' : `$${formatWhole(amount)}`;
}

/** "reward + bonus" with 2 decimals and the board's reward icon; a dash when there is no prize. */
export function RewardText({
  entry,
  unit,
}: {
  entry: Pick<LeaderboardEntry, 'reward' | 'rewardBonus'>;
  unit: RewardUnit;
}) {
  if (entry.reward === null) return <span className="text-body-secondary">—</span>;
  const hasBonus = entry.rewardBonus !== null && entry.rewardBonus !== 0;
  // The icon stays with the last number, so a narrow column breaks the line after the "+".
  return (
    <span className="kb-reward">
      {hasBonus ? (
        <>
          <span>{`${formatAmount(entry.reward)} + `}</span>
          <span className="kb-reward-tail">
            <span className="kb-reward-bonus">{formatAmount(entry.rewardBonus ?? 0)}</span>
            <CurrencyIcon unit={unit} />
          </span>
        </>
      ) : (
        <span className="kb-reward-tail">
          {formatAmount(entry.reward)}
          <CurrencyIcon unit={unit} />
        </span>
      )}
    </span>
  );
}

const ClashIdPopover = lazy(() => import('./clash-id-popover'));

/** The row's Clash Id button, as drawn before its popover code is there. */
export function ClashIdToggle({ entry, onClick }: { entry: LeaderboardEntry; onClick?: () => void }) {
  return (
    <button
      type="button"
      className="kb-clash-id"
      aria-label={`${messages.clashIdTitle} of ${entry.userName}`}
      onClick={onClick}
    >
      <FaIdCard aria-hidden />
    </button>
  );
}

/**
 * Rows with a Clash id offer it in a popover titled 'Clash Id'. The popover (and its positioning
 * library) loads beside the board, not before it draws (docs/benchmarks.md#first-load-budget-per-page);
 * a press before then opens it once it is there.
 */
export function ClashIdButton({ entry }: { entry: LeaderboardEntry }) {
  const [pressed, setPressed] = useState(false);
  if (entry.clashId === -1) return null;
  return (
    <Suspense fallback={<ClashIdToggle entry={entry} onClick={() => setPressed(true)} />}>
      <ClashIdPopover entry={entry} defaultShow={pressed} />
    </Suspense>
  );
}
