/**
 * The "Live now" list: running public games (each links to its page), the open prediction, an open
 * giveaway and the running bonus hunt, from `GET /api/live/now`, or an honest empty state. The home
 * page shows the first few (`limit`, one row of fixed-height cards so the page does not jump when
 * the list arrives); /live shows everything.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { IconType } from 'react-icons';
import { FaBoxOpen, FaChartColumn, FaGift, FaHandshake, FaMagnifyingGlassDollar } from 'react-icons/fa6';
import type { LiveGame, LiveNow } from '@kickback/common/http/live';
import { useSite } from '../../shared/site-context';
import { useLiveNow } from './use-live-now';
import './live-now.css';

interface Item {
  key: string;
  icon: IconType;
  title: string;
  detail: ReactNode;
  status: string;
  /** A page of this site, or an outside address (Kick chat). */
  to: string;
  external?: boolean;
  cta: string;
}

const gameIcon: Record<LiveGame['kind'], IconType> = {
  'split-or-steal': FaHandshake,
  'deal-or-no-deal': FaBoxOpen,
};

function itemsOf(live: LiveNow, kickUrl: string): Item[] {
  const items: Item[] = live.games.map((g) => ({
    key: `${g.kind}:${g.id}`,
    icon: gameIcon[g.kind],
    title: g.title,
    detail: g.players.length > 0 ? g.players.join(' vs ') : 'Seats open',
    status: g.status,
    to: g.link,
    cta: 'Watch the game',
  }));
  if (live.prediction) {
    items.push({
      key: 'prediction',
      icon: FaChartColumn,
      title: 'Prediction',
      detail: live.prediction.question,
      status: live.prediction.status === 'open' ? 'Bets open: !bet in Kick chat' : 'Bets closed, result soon',
      to: kickUrl,
      external: true,
      cta: 'Open Kick chat',
    });
  }
  if (live.giveawayOpen) {
    items.push({
      key: 'giveaway',
      icon: FaGift,
      title: 'Giveaway',
      detail: 'Type the key in Kick chat to enter.',
      status: 'Entries open',
      to: kickUrl,
      external: true,
      cta: 'Open Kick chat',
    });
  }
  if (live.hunt) {
    items.push({
      key: 'hunt',
      icon: FaMagnifyingGlassDollar,
      title: 'Bonus hunt',
      detail: live.hunt.name,
      status: live.hunt.guessingOpen ? 'Guessing open: !guess in Kick chat' : 'Guessing closed',
      to: live.hunt.link,
      cta: 'Follow the hunt',
    });
  }
  return items;
}

function Card({ item }: { item: Item }) {
  return (
    <article className="kb-live-card h-100" aria-label={`${item.title}: ${item.status}`}>
      <div className="d-flex align-items-center gap-2 mb-1">
        <item.icon className="kb-live-icon" aria-hidden />
        <h3 className="h6 mb-0">{item.title}</h3>
        <span className="kb-live-dot ms-auto" aria-hidden />
      </div>
      <p className="kb-live-detail mb-1">{item.detail}</p>
      <p className="small text-body-secondary mb-2">{item.status}</p>
      {item.external ? (
        <a href={item.to} target="_blank" rel="noreferrer" className="stretched-link kb-feature-link small">
          {item.cta} →
        </a>
      ) : (
        <Link to={item.to} className="stretched-link kb-feature-link small">
          {item.cta} →
        </Link>
      )}
    </article>
  );
}

export function LiveNowList({ limit, headingLevel = 2 }: { limit?: number; headingLevel?: 1 | 2 }) {
  const site = useSite();
  const { data, isError } = useLiveNow();
  const items = data ? itemsOf(data, site.kickChannelUrl) : [];
  const shown = limit === undefined ? items : items.slice(0, limit);
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <section className="kb-live-now" aria-labelledby="kb-live-now-title" data-testid="live-now">
      <div className="d-flex flex-wrap align-items-baseline gap-3 mb-3">
        <Heading id="kb-live-now-title" className={headingLevel === 1 ? 'h2 mb-0' : 'h3 mb-0'}>
          Live now
        </Heading>
        {limit !== undefined && (
          <Link to="/live" className="kb-feature-link small">
            {items.length > shown.length ? `See all ${items.length} live →` : 'Everything live →'}
          </Link>
        )}
      </div>
      <div className={limit !== undefined ? 'kb-live-row' : undefined} aria-busy={!data && !isError}>
        {!data && !isError ? null : shown.length === 0 ? (
          <p className="kb-live-empty mb-0">
            {isError
              ? 'Could not check what is live. Try again in a moment.'
              : 'Nothing is live right now. Games, predictions, giveaways and hunts appear here while they run.'}
          </p>
        ) : (
          <ul className="row g-3 list-unstyled mb-0">
            {shown.map((item) => (
              <li className="col-sm-6 col-lg-3" key={item.key}>
                <Card item={item} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
