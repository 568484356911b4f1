/**
 * One day of the calendar (docs/product.md#site-entities,
 * docs/product.md#site-states-and-transitions): "Day {n}", a case in the day's colour, and the
 * state — Available, a spinner while claiming, a cross when timed out, a padlock when locked. A
 * claimed card turns over to its second face: the open case, the amount and the currency icon.
 */
import Spinner from 'react-bootstrap/Spinner';
import { FaLock, FaXmark } from 'react-icons/fa6';
import type { RewardIcon as RewardIconKind } from '@kickback/common/http/daily-rewards';
import { caseColourOf } from '@kickback/common/rewards/calendar';
import { formatAmount } from '../../lib/format';
import { CaseArt } from './case-art';
import { RewardIcon } from './reward-icon';
import { useTranslation } from '../../i18n/i18n';

/** `unavailable`: today, but the server says a claim would not pay (`reason` says why, on the case). */
export type DayView = 'available' | 'loading' | 'claimed' | 'locked' | 'timeout' | 'unavailable';

interface Props {
  day: number;
  index: number;
  view: DayView;
  amount: number;
  icon: RewardIconKind;
  isToday: boolean;
  /** Why today's case cannot be claimed (view `unavailable`). */
  reason?: string;
  onClaim(): void;
}

export function DayCard({ day, index, view, amount, icon, isToday, reason, onClaim }: Props) {
  const { t } = useTranslation();
  const claimable = view === 'available';
  const detail =
    view === 'claimed' ? `: ${formatAmount(amount)}` : view === 'unavailable' && reason ? `: ${reason}` : '';
  const label = t('day.label', { day, state: t(`day.state.${view}`), detail });
  return (
    <button
      type="button"
      className={`kb-day kb-day-${view} kb-case-${caseColourOf(index)}${isToday ? ' kb-day-today' : ''}`}
      aria-label={label}
      aria-busy={view === 'loading'}
      disabled={!claimable}
      data-day={day}
      data-state={view}
      onClick={() => {
        if (claimable) onClaim();
      }}
    >
      <span className={`kb-day-inner${view === 'claimed' ? ' kb-day-flipped' : ''}`}>
        <span className="kb-day-face kb-day-front" aria-hidden={view === 'claimed'}>
          <span className="kb-day-title">{t('day.title', { day })}</span>
          <CaseArt index={index} open={false} />
          <span className="kb-day-status">
            {view === 'available' && <span className="kb-day-label-available">{t('day.available')}</span>}
            {view === 'loading' && (
              <Spinner animation="border" size="sm" role="status" aria-label={t('day.claiming')} />
            )}
            {view === 'timeout' && <span className="kb-day-missed">{t('day.missed')}</span>}
            {view === 'locked' && <span className="kb-day-soon">{t('day.locked')}</span>}
            {view === 'unavailable' && <span className="kb-day-reason">{reason ?? t('day.notAvailable')}</span>}
          </span>
          {view === 'locked' && (
            <span className="kb-day-lock" aria-hidden>
              <FaLock />
            </span>
          )}
          {view === 'timeout' && (
            <span className="kb-day-cross" aria-hidden>
              <FaXmark />
            </span>
          )}
        </span>
        <span className="kb-day-face kb-day-back" aria-hidden={view !== 'claimed'}>
          <span className="kb-day-title">{t('day.title', { day })}</span>
          <CaseArt index={index} open />
          <span className="kb-day-amount">
            <RewardIcon icon={icon} size={18} />
            <span data-testid="day-amount">{formatAmount(amount)}</span>
          </span>
        </span>
      </span>
    </button>
  );
}
