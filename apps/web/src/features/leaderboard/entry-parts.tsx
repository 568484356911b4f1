/** Pieces of a board row shared by the podium and the table. */
import Button from 'react-bootstrap/Button';
import OverlayTrigger from 'react-bootstrap/OverlayTrigger';
import Popover from 'react-bootstrap/Popover';
import { toast } from 'react-toastify';
import { FaCircleCheck, FaCircleXmark, FaIdCard, FaRegCopy } from 'react-icons/fa6';
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

/** Rows with a Clash id offer it in a popover titled 'Clash Id'. */
export function ClashIdButton({ entry }: { entry: LeaderboardEntry }) {
  if (entry.clashId === -1) return null;
  const id = String(entry.clashId);
  const copy = () => {
    void navigator.clipboard?.writeText(id).then(
      () => toast.success(messages.copiedToClipboard),
      () => undefined,
    );
  };
  return (
    <OverlayTrigger
      trigger="click"
      rootClose
      placement="top"
      overlay={
        <Popover id={`clash-id-${entry.rank}`}>
          <Popover.Header as="h3">{messages.clashIdTitle}</Popover.Header>
          <Popover.Body className="d-flex align-items-center gap-2">
            <code className="fs-6">{id}</code>
            <Button size="sm" variant="outline-secondary" onClick={copy} aria-label="Copy Clash Id">
              <FaRegCopy aria-hidden />
            </Button>
          </Popover.Body>
        </Popover>
      }
    >
      <button type="button" className="kb-clash-id" aria-label={`${messages.clashIdTitle} of ${entry.userName}`}>
        <FaIdCard aria-hidden />
      </button>
    </OverlayTrigger>
  );
}
