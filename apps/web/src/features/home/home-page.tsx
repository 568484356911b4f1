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
import { useTranslation } from '../../i18n/i18n';
import type en from '../../i18n/locales/en.json';
import { useLiveNow } from './use-live-now';

/** The community goals, loaded once the page drew (docs/features/community-goal.md#where-it-shows). */
const GoalBars = lazy(() => import('../../components/community-goal/goal-bars'));

interface Feature {
  /** Its texts: home.features.<id>.title, .text and .cta. */
  id: FeatureId;
  icon: IconType;
  path: string;
}

type FeatureId = keyof (typeof en)['home']['features'];

const features: Feature[] = [
  { id: 'leaderboards', icon: FaTrophy, path: '/leaderboard' },
  { id: 'store', icon: FaStore, path: '/store' },
  { id: 'supporting', icon: FaHandHoldingHeart, path: '/earn' },
  { id: 'daily', icon: FaGift, path: '/DailyRewards' },
  { id: 'challenges', icon: FaBullseye, path: '/Challenges' },
  { id: 'gameShows', icon: FaTv, path: '/live' },
  { id: 'chatGiveaways', icon: FaComments, path: '/live' },
  { id: 'raffles', icon: FaTicket, path: '/raffles' },
  { id: 'battles', icon: FaBolt, path: '/battles' },
  { id: 'slotCalls', icon: FaDice, path: '/calls' },
  { id: 'vip', icon: FaCrown, path: '/RoobetVip' },
];

export default function HomePage() {
  const site = useSite();
  const { t } = useTranslation();
  const { user, signIn } = useAuth();
  const { openProfile } = useProfileModal();
  const hasRoute = useHasRoute();
  // "Live" only on Kick's word that the stream is live; ended says so; unknown claims neither.
  const streamLive = useLiveNow().data?.streamLive ?? null;
  const streamState =
    streamLive === true ? t('home.liveOnKick') : streamLive === false ? t('home.offline') : t('home.onKick');

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
                {t('home.welcomeStart')}
                <span className="kb-accent">{site.streamerName}</span>
                {t('home.welcomeEnd')}
              </h1>
              <p className="lead text-body-secondary">{site.tagline}</p>
              <div className="d-flex flex-wrap gap-2 mt-4">
                {user ? (
                  <Button size="lg" onClick={openProfile}>
                    <FaCoins aria-hidden className="me-2" />
                    {t('home.youHave', { points: formatAmount(user.points) })}
                  </Button>
                ) : (
                  <Button size="lg" onClick={signIn}>
                    <FaSteam aria-hidden className="me-2" />
                    {t('home.signInWithSteam')}
                  </Button>
                )}
                <Button size="lg" variant="outline-light" href={site.kickChannelUrl} target="_blank" rel="noreferrer">
                  <SiKick aria-hidden className="me-2" />
                  {t('home.watch')}
                </Button>
              </div>
            </div>
            <div className="col-lg-5">
              <div className="kb-hero-card">
                <h2 className="h5 mb-3">{t('home.oneAccount')}</h2>
                <ul className="list-unstyled mb-0 kb-steps">
                  <li>
                    <FaSteam aria-hidden /> <span>{t('home.stepSteam')}</span>
                  </li>
                  <li>
                    <SiKick aria-hidden /> <span>{t('home.stepKick')}</span>
                  </li>
                  <li>
                    <FaDiscord aria-hidden /> <span>{t('home.stepDiscord')}</span>
                  </li>
                  <li>
                    <FaLink aria-hidden /> <span>{t('home.stepPartners')}</span>
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
          {t('home.whatYouCanDo')}
        </h2>
        <div className="row g-3">
          {features.map((f) => {
            const linked = f.path && hasRoute(f.path);
            return (
              <div className="col-sm-6 col-lg-4" key={f.id}>
                <article className="kb-feature h-100">
                  <f.icon className="kb-feature-icon" aria-hidden />
                  <h3 className="h5">{t(`home.features.${f.id}.title`)}</h3>
                  <p className="text-body-secondary mb-3">{t(`home.features.${f.id}.text`)}</p>
                  {linked && (
                    <Link to={f.path} className="stretched-link kb-feature-link">
                      {t(`home.features.${f.id}.cta`)} →
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
            <h2 className="h4 mb-1">{t('home.playResponsibly')}</h2>
            <p className="mb-0 text-body-secondary">{t('home.noCashValue')}</p>
          </div>
          {!user && (
            <Button variant="primary" onClick={signIn}>
              {t('home.join')}
            </Button>
          )}
        </div>
      </section>
    </>
  );
}
