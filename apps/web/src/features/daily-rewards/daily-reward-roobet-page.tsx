/**
 * /dailyrewardroobet (spec part 1 "Daily reward calendar"): this month's day cards for the Roobet
 * reward (type 5). Public to look at; claiming needs sign-in ("First log in please." otherwise,
 * nothing sent). A claim shows "Earned {amount} coins.", plays the coin sound and turns the card.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { toast } from 'react-toastify';
import { FaCircleInfo, FaClock, FaGift } from 'react-icons/fa6';
import { leaderboardEndpoints } from '@kickback/common/http/leaderboards';
import { AFFILIATE_REWARD_TYPE, rewardTypeOf, type MonthlyRewardRecord } from '@kickback/common/http/daily-rewards';
import { buildCalendar, cardStateOf } from '@kickback/common/rewards/calendar';
import { earnedMessage, messages } from '@kickback/common/messages';
import { useAuth } from '../../app/auth/auth-context';
import { useProfileModal } from '../../app/profile-modal-context';
import { useSite } from '../../app/site-context';
import { api } from '../../lib/api';
import { claimReward, loadMonthlyRoobet } from './api';
import { playCoin } from './coin-sound';
import { DayCard, type DayView } from './day-card';
import './daily-rewards.css';

const TYPE = AFFILIATE_REWARD_TYPE;
const monthFormat = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

export default function DailyRewardRoobetPage() {
  const site = useSite();
  const { user } = useAuth();
  const { openProfile } = useProfileModal();
  const info = rewardTypeOf(TYPE);
  const [records, setRecords] = useState<MonthlyRewardRecord[]>([]);
  const [loadingDay, setLoadingDay] = useState<number | null>(null);
  const [code, setCode] = useState<string | null>(null);
  const [now] = useState(() => new Date());
  const userId = user?.openId ?? null;

  useEffect(() => {
    const controller = new AbortController();
    loadMonthlyRoobet(controller.signal)
      .then(setRecords)
      .catch(() => setRecords([]));
    return () => controller.abort();
  }, [userId]);

  useEffect(() => {
    api(leaderboardEndpoints.sites, { silent: true })
      .then((r) => setCode(r.sites.find((s) => s.slug === 'roobet')?.codes[0] ?? null))
      .catch(() => setCode(null));
  }, []);

  const days = useMemo(() => buildCalendar(now, records), [now, records]);
  const today = now.getUTCDate();

  const claim = useCallback(
    async (day: number) => {
      if (!user) {
        toast.error(messages.firstLogInPlease);
        return;
      }
      setLoadingDay(day);
      try {
        const { gemAmount } = await claimReward(TYPE);
        setRecords((r) => [...r, { createTime: new Date().toISOString(), gemAmount }]);
        toast.success(earnedMessage(gemAmount, TYPE));
        playCoin();
      } catch {
        // back to unclaimed; the API wrapper showed why
      } finally {
        setLoadingDay(null);
      }
    },
    [user],
  );

  const total = records.reduce((sum, r) => sum + Math.round(r.gemAmount * 100), 0) / 100;
  return (
    <section className="container-xl py-4 kb-rewards">
      <header className="kb-rewards-head">
        <div>
          <p className="kb-eyebrow mb-1">Roobet daily rewards</p>
          <h1 className="kb-rewards-title">{monthFormat.format(now)}</h1>
          <p className="kb-rewards-lead">
            You can claim <strong>100% of the earnings</strong> from your wagering on code{' '}
            {code ? <strong className="kb-code">{code}</strong> : <>{site.streamerName}&rsquo;s code</>} every day. Open
            today&rsquo;s case to collect what your play on Roobet earned yesterday.
          </p>
        </div>
        <div className="kb-rewards-summary" aria-live="polite">
          <span className="kb-rewards-summary-label">Claimed this month</span>
          <span className="kb-rewards-summary-value">${total.toFixed(2)}</span>
        </div>
      </header>

      <ul className="kb-rewards-notes">
        <li>
          <FaGift aria-hidden /> One case a day, claimable on its day (UTC).
        </li>
        <li>
          <FaClock aria-hidden /> Delivery can take up to 24 hours.
        </li>
        <li>
          <FaCircleInfo aria-hidden /> Link your Roobet username in your profile to claim.
        </li>
      </ul>

      {user && !user.roobetName && (
        <Alert variant="warning" className="d-flex flex-wrap align-items-center gap-2">
          <span className="me-auto">Link your Roobet username in your profile to claim your daily rewards.</span>
          <Button size="sm" variant="dark" onClick={openProfile}>
            Open profile
          </Button>
        </Alert>
      )}

      <div className="kb-calendar" role="list" aria-label={`Daily rewards, ${monthFormat.format(now)}`}>
        {days.map((d) => {
          const view: DayView = loadingDay === d.day ? 'loading' : cardStateOf(d);
          return (
            <div role="listitem" key={d.day}>
              <DayCard
                day={d.day}
                index={d.index}
                view={view}
                amount={d.initialGemAmount}
                icon={info.icon}
                isToday={d.day === today}
                onClaim={() => void claim(d.day)}
              />
            </div>
          );
        })}
      </div>
    </section>
  );
}
