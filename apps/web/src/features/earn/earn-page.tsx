/**
 * /earn (public): "How to earn points" — every way that pays, with the amounts the admins set now
 * (docs/features/earning-points.md). Linked from the header's balance, the store and the home page.
 */
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import type { IconType } from 'react-icons';
import { FaComments, FaCoins, FaHandHoldingHeart, FaTrophy } from 'react-icons/fa6';
import { useAuth } from '../../shared/auth/auth-context';
import { useProfileModal } from '../../shared/profile-modal-context';
import { useEarnWays } from './api';
import { earnWaysOf, type EarnGroup, type EarnWay } from './earn-ways';
import { formatAmount } from '../../lib/format';
import './earn.css';

const groups: { group: EarnGroup; title: string; icon: IconType; intro: string }[] = [
  {
    group: 'chat',
    title: 'Chatting',
    icon: FaComments,
    intro: 'Link your Kick account, then just talk: a minute with a message in it counts once.',
  },
  {
    group: 'support',
    title: 'Supporting the stream',
    icon: FaHandHoldingHeart,
    intro: 'Subs, gifted subs, KICKs and a first follow on Kick pay points to your linked account.',
  },
  {
    group: 'channel-points',
    title: 'Kick channel points',
    icon: FaCoins,
    intro: 'Redeem these rewards on Kick with the channel points you collect by watching.',
  },
  {
    group: 'wagering',
    title: 'Wagering under the code',
    icon: FaTrophy,
    intro: 'Add your partner-site name in your profile; once it is verified your wagering pays points.',
  },
];

function Way({ way }: { way: EarnWay }) {
  return (
    <li className={`kb-earn-way${way.on ? '' : ' kb-earn-off'}`} data-testid={`earn-${way.key}`}>
      <div className="d-flex flex-wrap align-items-baseline gap-2">
        <h3 className="h6 mb-0">{way.title}</h3>
        {way.on ? null : <span className="badge text-bg-secondary">Off right now</span>}
      </div>
      <p className="mb-0">
        <strong className="kb-earn-amount">{way.amount}</strong> {way.per}
      </p>
    </li>
  );
}

export default function EarnPage() {
  const { user } = useAuth();
  const { openLinkFlow } = useProfileModal();
  const { data, isError } = useEarnWays();
  const ways = data ? earnWaysOf(data) : [];
  const cap = data && data.support.enabled && data.support.dailyCap > 0 ? data.support.dailyCap : null;

  return (
    <section className="container-xl py-4 kb-earn">
      <h1 className="h2 mb-2">How to earn points</h1>
      <p className="lead text-body-secondary mb-3">
        Points buy items in the <Link to="/store">store</Link>, raffle tickets and prediction bets. These are all the
        ways to earn them, with the amounts paid right now.
      </p>
      <div className="d-flex flex-wrap align-items-center gap-3 mb-4">
        {user ? (
          <p className="mb-0" data-testid="earn-balance">
            You have <strong className="kb-accent">{formatAmount(user.points)}</strong> points
          </p>
        ) : null}
        <Button variant="outline-light" onClick={openLinkFlow}>
          Link your Kick account
        </Button>
      </div>
      {isError ? <p role="alert">Could not load the ways to earn points. Try again in a moment.</p> : null}
      <div aria-busy={!data && !isError}>
        {data
          ? groups.map((g) => {
              const items = ways.filter((w) => w.group === g.group);
              if (items.length === 0) return null;
              return (
                <section key={g.group} className="kb-earn-group mb-4" aria-labelledby={`earn-${g.group}`}>
                  <h2 id={`earn-${g.group}`} className="h4 d-flex align-items-center gap-2">
                    <g.icon aria-hidden className="kb-accent" /> {g.title}
                  </h2>
                  <p className="text-body-secondary">{g.intro}</p>
                  <ul className="list-unstyled kb-earn-list mb-2">
                    {items.map((w) => (
                      <Way key={w.key} way={w} />
                    ))}
                  </ul>
                  {g.group === 'support' && cap !== null ? (
                    <p className="small text-body-secondary mb-0" data-testid="earn-cap">
                      At most {formatAmount(cap)} points a day from each kind of support.
                    </p>
                  ) : null}
                </section>
              );
            })
          : null}
      </div>
      <section className="kb-earn-group" aria-labelledby="earn-more">
        <h2 id="earn-more" className="h4">
          More to win
        </h2>
        <ul className="kb-earn-more">
          <li>
            <Link to="/DailyRewards">Daily Rewards</Link>: a case every day from your wagering on the code.
          </li>
          <li>
            <Link to="/Challenges">Challenges</Link>: hit the listed multiplier first and win the prize.
          </li>
          <li>
            <Link to="/raffles">Raffles</Link>, <Link to="/live">games and predictions</Link> on stream.
          </li>
        </ul>
      </section>
    </section>
  );
}
