/**
 * /dailyrewardroobet (docs/product.md#daily-reward-calendar-dailyrewardroobet): this month's day cards for the Roobet
 * reward (type 5). Public to look at; claiming needs sign-in ("First log in please." otherwise,
 * nothing sent). A claim shows "Earned {amount} coins.", plays the coin sound and turns the card.
 * For a signed-in user, today's case is Available only when the server says a claim would pay
 * (`GET /api/DailyReward/RoobetToday`); otherwise it says why on the case. The page opens scrolled
 * to today.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { toast } from '../../lib/toast';
import { FaCircleInfo, FaClock, FaGift } from 'react-icons/fa6';
import { AFFILIATE_REWARD_TYPE, rewardTypeOf, type MonthlyRewardRecord } from '@kickback/common/http/daily-rewards';
import { buildCalendar, cardStateOf } from '@kickback/common/rewards/calendar';

import { useAuth } from '../../shared/auth/auth-context';
import { useProfileModal } from '../../shared/profile-modal-context';
import { useSite } from '../../shared/site-context';
import { formatAmount, formatMoney } from '../../lib/format';
import { useTranslation } from '../../i18n/i18n';
import { useRoobetSite } from '../../lib/roobet-site';
import { claimInput, useClaimReward, useMonthlyRoobet, useRoobetToday } from './api';
import { playCoin } from './coin-sound';
import { DayCard, type DayView } from './day-card';
import './daily-rewards.css';

const TYPE = AFFILIATE_REWARD_TYPE;
const noRecords: MonthlyRewardRecord[] = [];
/** How long after opening the calendar keeps today on screen while the page settles. */
const SETTLE_MS = 3000;

export default function DailyRewardRoobetPage() {
  const site = useSite();
  const { t, i18n } = useTranslation();
  const monthFormat = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { month: 'long', year: 'numeric', timeZone: 'UTC' }),
    [i18n.language],
  );
  const { user } = useAuth();
  const { openProfile } = useProfileModal();
  const info = rewardTypeOf(TYPE);
  const [loadingDay, setLoadingDay] = useState<number | null>(null);
  const [now] = useState(() => new Date());
  const records = useMonthlyRoobet(user?.openId ?? null).data ?? noRecords;
  const code = useRoobetSite()?.codes[0] ?? null;
  // Visitors keep the contract's Available case that answers "First log in please." when pressed.
  const status = useRoobetToday(user);
  const claimReward = useClaimReward();
  const calendarRef = useRef<HTMLDivElement>(null);

  const days = useMemo(() => buildCalendar(now, records), [now, records]);
  const today = now.getUTCDate();

  // Open at today: on a phone the month is a long column and today may be far down. A frame
  // later (after the layout's scroll restoration), and again on a scroll while the page settles (a
  // restoration that came later) until the visitor moves the page themselves
  // (docs/features/daily-rewards.md#the-calendar).
  useEffect(() => {
    let theirs = false;
    const centre = () => {
      const card = calendarRef.current?.querySelector<HTMLElement>(`[data-day="${today}"]`);
      if (theirs || !card) return;
      const box = card.getBoundingClientRect();
      if (box.top < 0 || box.bottom > window.innerHeight) card.scrollIntoView({ block: 'center', behavior: 'instant' });
    };
    const mine = () => {
      theirs = true;
    };
    const inputs = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
    for (const input of inputs) window.addEventListener(input, mine, { passive: true });
    const frame = requestAnimationFrame(centre);
    window.addEventListener('scroll', centre, { passive: true });
    const stop = () => {
      window.removeEventListener('scroll', centre);
      for (const input of inputs) window.removeEventListener(input, mine);
    };
    const settled = setTimeout(stop, SETTLE_MS);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(settled);
      stop();
    };
  }, [today]);

  /** Today's view for a signed-in user: Available only when the server says the claim pays. */
  const todayView = (base: DayView): { view: DayView; reason?: string } => {
    if (!user || base !== 'available') return { view: base };
    if (!status.data)
      return { view: 'unavailable', reason: status.isError ? t('daily.tryLater') : t('daily.checking') };
    if (status.data.claimable) return { view: 'available' };
    return { view: 'unavailable', reason: status.data.reason ? t(`daily.refusal.${status.data.reason}`) : undefined };
  };

  const claim = async (day: number) => {
    if (!user) {
      toast.error(t('daily.firstLogIn'));
      return;
    }
    setLoadingDay(day);
    try {
      const { gemAmount } = await claimReward.mutateAsync(claimInput(TYPE));
      toast.success(t('daily.earned', { amount: formatAmount(gemAmount) }));
      playCoin();
    } catch {
      // back to unclaimed; the API wrapper showed why
    } finally {
      setLoadingDay(null);
    }
  };

  const total = records.reduce((sum, r) => sum + Math.round(r.gemAmount * 100), 0) / 100;
  return (
    <section className="container-xl py-4 kb-rewards">
      <header className="kb-rewards-head">
        <div>
          <p className="kb-eyebrow mb-1">{t('daily.eyebrow')}</p>
          <h1 className="kb-rewards-title">{monthFormat.format(now)}</h1>
          <p className="kb-rewards-lead">
            {t('daily.leadStart')}
            <strong>{t('daily.leadStrong')}</strong>
            {t('daily.leadCode')}{' '}
            {code ? (
              <strong className="kb-code">{code}</strong>
            ) : (
              <>{t('daily.streamersCode', { streamer: site.streamerName })}</>
            )}
            {t('daily.leadEnd')}
          </p>
        </div>
        <div className="kb-rewards-summary" aria-live="polite">
          <span className="kb-rewards-summary-label">{t('daily.claimedThisMonth')}</span>
          <span className="kb-rewards-summary-value">{formatMoney(total, 'USD')}</span>
        </div>
      </header>

      <ul className="kb-rewards-notes">
        <li>
          <FaGift aria-hidden /> {t('daily.noteOneCase')}
        </li>
        <li>
          <FaClock aria-hidden /> {t('daily.noteDelivery')}
        </li>
        {/* Once a Roobet name is saved (pending or verified), this hint would contradict the page. */}
        {!user?.roobetName && (
          <li>
            <FaCircleInfo aria-hidden /> {t('daily.noteLink')}
          </li>
        )}
      </ul>

      {user && !user.roobetName && (
        <Alert variant="warning" className="d-flex flex-wrap align-items-center gap-2">
          <span className="me-auto">{t('daily.linkAlert')}</span>
          <Button size="sm" variant="dark" onClick={openProfile}>
            {t('daily.openProfile')}
          </Button>
        </Alert>
      )}

      {user &&
        status.data &&
        !status.data.claimable &&
        status.data.message &&
        status.data.reason !== 'already_claimed' &&
        status.data.reason !== 'not_linked' && (
          <p className="kb-rewards-why" data-testid="claim-why">
            {t('daily.today', { message: status.data.message })}
          </p>
        )}

      <div
        className="kb-calendar"
        role="list"
        aria-label={t('daily.calendarLabel', { month: monthFormat.format(now) })}
        ref={calendarRef}
      >
        {days.map((d) => {
          const base: DayView = loadingDay === d.day ? 'loading' : cardStateOf(d);
          const { view, reason } = d.day === today ? todayView(base) : { view: base, reason: undefined };
          return (
            <div role="listitem" key={d.day}>
              <DayCard
                day={d.day}
                index={d.index}
                view={view}
                amount={d.initialGemAmount}
                icon={info.icon}
                isToday={d.day === today}
                reason={reason}
                onClaim={() => void claim(d.day)}
              />
            </div>
          );
        })}
      </div>
    </section>
  );
}
