import { lazy, Suspense } from 'react';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import type { IconType } from 'react-icons';
import {
  FaTrophy,
  FaStore,
  FaGift,
  FaBullseye,
  FaTv,
  FaDiscord,
  FaSteam,
  FaCrown,
  FaTicket,
  FaComments,
  FaLink,
  FaCoins,
  FaBolt,
  FaDice,
  FaHandHoldingHeart,
} from 'react-icons/fa6';
import { SiKick } from 'react-icons/si';
import { useAuth } from '../../shared/auth/auth-context';
import { useSite } from '../../shared/site-context';
import { useHasRoute } from '../../shared/known-routes';
import { useProfileModal } from '../../shared/profile-modal-context';
import { formatAmount } from '../../lib/format';
import { LiveNowList } from './live-now';
import { useLiveNow } from './use-live-now';

/** The community goals, loaded once the page drew (docs/features/community-goal.md#where-it-shows). */
const GoalBars = lazy(() => import('../../components/community-goal/goal-bars'));

interface Feature {
  icon: IconType;
  title: string;
  text: string;
  path?: string;
  cta?: string;
}

const features: Feature[] = [
  {
    icon: FaTrophy,
    title: 'Weekly wager leaderboards',
    text: 'Wager under the code on our partner sites and race for the weekly prize pool. Standings refresh every few minutes.',
    path: '/leaderboard',
    cta: 'See the standings',
  },
  {
    icon: FaStore,
    title: 'Points store',
    text: 'Every minute you chat and every dollar you wager earns points. Spend them on skins, balance tips and merch.',
    path: '/store',
    cta: 'Browse the store',
  },
  {
    icon: FaHandHoldingHeart,
    title: 'Supporting pays',
    text: 'Subs, gifted subs, KICKs, a first follow and Kick channel points all pay points, on top of chatting and wagering.',
    path: '/earn',
    cta: 'How to earn points',
  },
  {
    icon: FaGift,
    title: 'Daily rewards',
    text: 'Open a case every day and claim back 100% of the earnings from your wagering on the code.',
    path: '/DailyRewards',
    cta: 'Claim today',
  },
  {
    icon: FaBullseye,
    title: 'Challenges',
    text: 'Hit the multiplier on the listed game first and the prize is yours. New challenges drop every week.',
    path: '/Challenges',
    cta: 'View challenges',
  },
  {
    icon: FaTv,
    title: 'Live game shows',
    text: 'Split or Steal and Deal or No Deal, played live on stream with real prizes while chat watches.',
    path: '/live',
    cta: 'See what is live',
  },
  {
    icon: FaComments,
    title: 'Chat giveaways & predictions',
    text: 'Type the key in Kick chat to enter giveaways with provably fair draws, and bet your points on predictions.',
    path: '/live',
    cta: 'See what is open',
  },
  {
    icon: FaTicket,
    title: 'Ticket raffles',
    text: 'Spend points on tickets, or earn them by supporting the stream; winners are drawn provably fair on stream.',
    path: '/raffles',
    cta: 'See the raffles',
  },
  {
    icon: FaBolt,
    title: 'Bonus-buy battles',
    text: 'Enter with !enter, pick your slot and watch the bracket on stream: the higher multiplier goes on.',
    path: '/battles',
    cta: 'See the battles',
  },
  {
    icon: FaDice,
    title: 'Slot calls',
    text: 'Type !sr and a slot in Kick chat to tell the streamer what to play; a call that pays big in the bonus hunt pays you.',
    path: '/calls',
    cta: 'See the queue',
  },
  {
    icon: FaCrown,
    title: 'Roobet VIP transfer',
    text: 'Bring your VIP status over: play under the code for three weeks and we will get your level matched.',
    path: '/RoobetVip',
    cta: 'How it works',
  },
];

export default function HomePage() {
  const site = useSite();
  const { user, signIn } = useAuth();
  const { openProfile } = useProfileModal();
  const hasRoute = useHasRoute();
  // "Live" only on Kick's word that the stream is live; ended says so; unknown claims neither.
  const streamLive = useLiveNow().data?.streamLive ?? null;
  const streamState = streamLive === true ? 'Live on Kick' : streamLive === false ? 'Offline' : 'On Kick';

  return (
    <>
      <section className="kb-hero">
        <div className="container-xl py-5">
          <div className="row align-items-center gy-4">
            <div className="col-lg-7">
              <p className="kb-eyebrow" data-testid="stream-eyebrow">
                <SiKick aria-hidden /> {streamState} · kick.com/{site.kickChannel}
              </p>
              <h1 className="kb-hero-title">
                Welcome to <span className="kb-accent">{site.streamerName}</span>&rsquo;s community
              </h1>
              <p className="lead text-body-secondary">{site.tagline}</p>
              <div className="d-flex flex-wrap gap-2 mt-4">
                {user ? (
                  <Button size="lg" onClick={openProfile}>
                    <FaCoins aria-hidden className="me-2" />
                    You have {formatAmount(user.points)} points
                  </Button>
                ) : (
                  <Button size="lg" onClick={signIn}>
                    <FaSteam aria-hidden className="me-2" />
                    Sign in with Steam
                  </Button>
                )}
                <Button size="lg" variant="outline-light" href={site.kickChannelUrl} target="_blank" rel="noreferrer">
                  <SiKick aria-hidden className="me-2" />
                  Watch the stream
                </Button>
              </div>
            </div>
            <div className="col-lg-5">
              <div className="kb-hero-card">
                <h2 className="h5 mb-3">One account for everything</h2>
                <ul className="list-unstyled mb-0 kb-steps">
                  <li>
                    <FaSteam aria-hidden /> <span>Sign in with Steam — no password to remember.</span>
                  </li>
                  <li>
                    <SiKick aria-hidden />{' '}
                    <span>Link your Kick account so chat activity and giveaway entries count.</span>
                  </li>
                  <li>
                    <FaDiscord aria-hidden /> <span>Link Discord to get prize notifications by DM.</span>
                  </li>
                  <li>
                    <FaLink aria-hidden /> <span>Add your partner-site usernames to earn points from wagering.</span>
                  </li>
                </ul>
              </div>
            </div>
          </div>
        </div>
      </section>

      <div className="container-xl pt-5">
        <LiveNowList limit={4} />
      </div>

      <section className="container-xl py-5" aria-labelledby="features-title">
        <h2 id="features-title" className="h3 mb-4">
          What you can do here
        </h2>
        <div className="row g-3">
          {features.map((f) => {
            const linked = f.path && hasRoute(f.path);
            return (
              <div className="col-sm-6 col-lg-4" key={f.title}>
                <article className="kb-feature h-100">
                  <f.icon className="kb-feature-icon" aria-hidden />
                  <h3 className="h5">{f.title}</h3>
                  <p className="text-body-secondary mb-3">{f.text}</p>
                  {linked && f.path && (
                    <Link to={f.path} className="stretched-link kb-feature-link">
                      {f.cta} →
                    </Link>
                  )}
                </article>
              </div>
            );
          })}
        </div>
      </section>

      <Suspense fallback={null}>
        <GoalBars heading className="container-xl pb-4" />
      </Suspense>

      <section className="container-xl pb-5">
        <div className="kb-band d-flex flex-column flex-md-row align-items-md-center justify-content-between gap-3">
          <div>
            <h2 className="h4 mb-1">Play responsibly</h2>
            <p className="mb-0 text-body-secondary">
              Points and gems have no cash value. Wagering is for adults only — set limits and take breaks.
            </p>
          </div>
          {!user && (
            <Button variant="primary" onClick={signIn}>
              Join the community
            </Button>
          )}
        </div>
      </section>
    </>
  );
}
