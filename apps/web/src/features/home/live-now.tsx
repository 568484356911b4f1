/**
 * The "Live now" list: running public games (each links to its page), the open prediction, an open
 * giveaway, the running bonus hunt, the raffles selling tickets and open slot calls, from
 * `GET /api/live/now`, or an honest empty state. The home page shows the first few (`limit`, one row
 * of cards of one height so the page does not jump when the list arrives; a long text ends after
 * two lines); /live shows everything, in wider cards whose text wraps in full.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { IconType } from 'react-icons';
import {
  FaBoxOpen,
  FaChartColumn,
  FaDice,
  FaGift,
  FaHandshake,
  FaMagnifyingGlassDollar,
  FaTicket,
} from 'react-icons/fa6';
import type { LiveGame, LiveNow } from '@kickback/common/http/live';
import { useSite } from '../../shared/site-context';
import { useLiveNow } from './use-live-now';
import { useTranslation } from '../../i18n/i18n';
import { formatWhen } from '../../lib/format';
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

type T = ReturnType<typeof useTranslation>['t'];

function itemsOf(live: LiveNow, kickUrl: string, t: T): Item[] {
  const items: Item[] = live.games.map((g) => ({
    key: `${g.kind}:${g.id}`,
    icon: gameIcon[g.kind],
    title: g.title,
    detail: g.players.length > 0 ? g.players.join(t('liveNow.vs')) : t('liveNow.seatsOpen'),
    status: g.status,
    to: g.link,
    cta: t('liveNow.watchGame'),
  }));
  if (live.prediction) {
    items.push({
      key: 'prediction',
      icon: FaChartColumn,
      title: t('liveNow.prediction'),
      detail: live.prediction.question,
      status: live.prediction.status === 'open' ? t('liveNow.betsOpen') : t('liveNow.betsClosed'),
      to: kickUrl,
      external: true,
      cta: t('liveNow.openKickChat'),
    });
  }
  if (live.giveawayOpen) {
    items.push({
      key: 'giveaway',
      icon: FaGift,
      title: t('liveNow.giveaway'),
      detail: t('liveNow.giveawayDetail'),
      status: t('liveNow.entriesOpen'),
      to: kickUrl,
      external: true,
      cta: t('liveNow.openKickChat'),
    });
  }
  if (live.hunt) {
    items.push({
      key: 'hunt',
      icon: FaMagnifyingGlassDollar,
      title: t('liveNow.hunt'),
      detail: live.hunt.name,
      status: live.hunt.guessingOpen ? t('liveNow.guessingOpen') : t('liveNow.guessingClosed'),
      to: live.hunt.link,
      cta: t('liveNow.followHunt'),
    });
  }
  for (const raffle of live.raffles) {
    items.push({
      key: `raffle:${raffle.id}`,
      icon: FaTicket,
      title: t('liveNow.raffle'),
      detail: raffle.title,
      status: t('liveNow.ticketsUntil', { when: formatWhen(raffle.closesAt) }),
      to: raffle.link,
      cta: t('liveNow.getTickets'),
    });
  }
  if (live.slotCalls) {
    const queued = live.slotCalls.queued;
    items.push({
      key: 'slot-calls',
      icon: FaDice,
      title: t('liveNow.slotCalls'),
      detail: t('liveNow.slotCallsDetail'),
      status: t('liveNow.callsOpen', { count: queued }),
      to: live.slotCalls.link,
      cta: t('liveNow.seeQueue'),
    });
  }
  return items;
}

function Card({ item, full }: { item: Item; full: boolean }) {
  return (
    <article
      className={`kb-live-card h-100${full ? ' kb-live-full' : ''}`}
      aria-label={`${item.title}: ${item.status}`}
    >
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
  const { t } = useTranslation();
  const { data, isError } = useLiveNow();
  const items = data ? itemsOf(data, site.kickChannelUrl, t) : [];
  const shown = limit === undefined ? items : items.slice(0, limit);
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <section className="kb-live-now" aria-labelledby="kb-live-now-title" data-testid="live-now">
      <div className="d-flex flex-wrap align-items-baseline gap-3 mb-3">
        <Heading id="kb-live-now-title" className={headingLevel === 1 ? 'h2 mb-0' : 'h3 mb-0'}>
          {t('liveNow.title')}
        </Heading>
        {limit !== undefined && (
          <Link to="/live" className="kb-feature-link small">
            {items.length > shown.length ? t('liveNow.seeAll', { count: items.length }) : t('liveNow.everything')}
          </Link>
        )}
      </div>
      <div className={limit !== undefined ? 'kb-live-row' : undefined} aria-busy={!data && !isError}>
        {!data && !isError ? null : shown.length === 0 ? (
          <p className="kb-live-empty mb-0">{isError ? t('liveNow.error') : t('liveNow.empty')}</p>
        ) : (
          <ul className="row g-3 list-unstyled mb-0">
            {shown.map((item) => (
              <li className={limit === undefined ? 'col-md-6 col-xl-4' : 'col-sm-6 col-lg-3'} key={item.key}>
                <Card item={item} full={limit === undefined} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
