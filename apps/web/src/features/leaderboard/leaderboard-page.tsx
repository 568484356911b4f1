/**
 * /leaderboard (docs/product.md#leaderboard-screen): one board per partner site, chosen by tabs that
 * keep the choice in the URL (`?site=6`, and `&view=previous` for site 1's previous board).
 */
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Link, useSearchParams } from 'react-router';
import { FaClockRotateLeft, FaTrophy } from 'react-icons/fa6';
import { type BoardType, type LeaderboardResponse, type SiteId } from '@kickback/common/http/leaderboards';
import { messages } from '@kickback/common/messages';
import { useSite } from '../../shared/site-context';
import { Countdown } from '../../components/ui/countdown';
import { CurrencyIcon } from '../../components/ui/currency-icon';
import { formatAmount } from '../../lib/format';
import { useBoard, useBoardPeriodEnded, useSites } from './board-api';
import { BoardTable } from './board-table';
import { Podium } from './podium';
import { Promo } from './promo';
import { Rules } from './rules';
import './leaderboard.css';

/** The site's community goal, loaded once the board drew (docs/features/community-goal.md#where-it-shows). */
const GoalBars = lazy(() => import('../../components/community-goal/goal-bars'));

const dateFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

function periodText(board: LeaderboardResponse | undefined): string | null {
  if (!board?.period) return null;
  return `${dateFormat.format(new Date(board.period.startDate))} – ${dateFormat.format(new Date(board.period.endDate))}`;
}

function prizePool(board: LeaderboardResponse): number {
  return (
    board.rewards.reduce((sum, r) => sum + Math.round(r.reward * 100) + Math.round((r.rewardBonus ?? 0) * 100), 0) / 100
  );
}

function titleOf(site: number, view: BoardType): string {
  if (site === 4) return messages.weeklyLeaderboard;
  return view === 'previous' ? messages.previousLeaderboard : messages.weeklyLeaderboard;
}

export default function LeaderboardPage() {
  const { streamerName } = useSite();
  const [params, setParams] = useSearchParams();
  const sites = useSites();
  const periodEnded = useBoardPeriodEnded();
  const activeTab = useRef<HTMLAnchorElement>(null);

  const requested = Number(params.get('site'));
  const current = sites?.find((s) => s.id === requested) ?? sites?.[0];
  const view: BoardType = current?.id === 1 && params.get('view') === 'previous' ? 'previous' : 'now';
  const board = useBoard(current ? (current.id as SiteId) : null, view);
  // The page draws once the first board is there, so nothing jumps when it arrives (layout shift).
  const [firstBoard, setFirstBoard] = useState(board !== undefined);
  if (board !== undefined && !firstBoard) setFirstBoard(true);

  // On a phone the tabs scroll sideways: keep the chosen one in view.
  useEffect(() => {
    activeTab.current?.scrollIntoView?.({ block: 'nearest', inline: 'center' });
  }, [current]);

  const onElapsed = useCallback(() => {
    if (!current) return;
    // The period just ended: the poller closes it within moments; then show the new one.
    const timer = window.setTimeout(() => periodEnded(current.id as SiteId), 8000);
    return () => window.clearTimeout(timer);
  }, [current, periodEnded]);

  const toggleView = () => {
    const next = new URLSearchParams(params);
    next.set('site', '1');
    if (view === 'now') next.set('view', 'previous');
    else next.delete('view');
    setParams(next);
  };

  const entries = board?.data ?? [];
  const unit = board?.rewardUnit ?? current?.rewardUnit ?? 'USD';
  const period = periodText(board);

  return (
    <section className="kb-leaderboard container-xl py-4">
      {sites === undefined || (current && !firstBoard) ? (
        <div className="kb-lb-loading" aria-busy="true" />
      ) : sites.length === 0 || !current ? (
        <div className="kb-card text-center py-5">
          <FaTrophy className="kb-feature-icon" aria-hidden />
          <h1 className="h3">{messages.weeklyLeaderboard}</h1>
          <p className="text-body-secondary mb-0">No leaderboards are running right now. Check back soon.</p>
        </div>
      ) : (
        <>
          <nav aria-label="Partner sites" className="kb-site-tabs">
            <ul className="nav nav-pills flex-nowrap">
              {sites.map((s) => (
                <li className="nav-item" key={s.id}>
                  <Link
                    to={{ search: `?site=${s.id}` }}
                    className={`nav-link${s.id === current.id ? ' active' : ''}`}
                    aria-current={s.id === current.id ? 'page' : undefined}
                    ref={s.id === current.id ? activeTab : undefined}
                  >
                    {s.name}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>

          <header className="kb-lb-hero">
            <div className="kb-lb-heading">
              <p className="kb-eyebrow mb-1">{current.name}</p>
              <h1 className="kb-lb-title">{titleOf(current.id, view)}</h1>
              {period && <p className="text-body-secondary mb-0">{period}</p>}
              <Link to={`/rewards?site=${current.id}`} className="d-inline-block mt-2 small">
                Milestone rewards
              </Link>
              {current.id === 1 && (
                <Button variant="outline-light" size="sm" className="mt-3" onClick={toggleView}>
                  <FaClockRotateLeft aria-hidden className="me-2" />
                  {view === 'now' ? messages.showPreviousLeaderboard : messages.showCurrentLeaderboard}
                </Button>
              )}
            </div>
            <div className="kb-lb-stats">
              {board?.countdown?.startDate && (
                <Countdown key={board.countdown.endDate} endDate={board.countdown.endDate} onElapsed={onElapsed} />
              )}
              {board && view === 'now' && board.rewards.length > 0 && (
                <div className="kb-prize-pool">
                  <span className="kb-countdown-label">Prize pool</span>
                  <span className="kb-prize-pool-value">
                    {formatAmount(prizePool(board))} <CurrencyIcon unit={unit} size={22} />
                  </span>
                </div>
              )}
            </div>
          </header>

          <Promo site={current} streamerName={streamerName} />

          <div className="kb-board" aria-busy={board === undefined}>
            <Podium entries={entries.slice(0, 3)} unit={unit} />
            {board && entries.length === 0 && (
              <p className="text-center text-body-secondary mt-3 mb-0">
                {view === 'previous'
                  ? 'No previous leaderboard yet.'
                  : 'No wagers yet this week — be the first on the code.'}
              </p>
            )}
            <BoardTable entries={entries.slice(3)} unit={unit} />
          </div>

          <Rules key={current.id} site={current.id} />
          <Suspense fallback={null}>
            <GoalBars site={current.id} />
          </Suspense>
        </>
      )}
    </section>
  );
}
