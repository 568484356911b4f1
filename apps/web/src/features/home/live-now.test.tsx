/**
 * The Live now list as `GET /api/live/now` answers it: every kind of item with where it leads, the
 * home page's first few with a link to everything, and an honest empty state.
 */
import { cleanup, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveNow } from '@kickback/common/http/live';
import { renderWithQueries } from '../../test/render';

vi.mock('../../shared/site-context', () => ({ useSite: () => ({ kickChannelUrl: 'https://kick.com/vex' }) }));

const { LiveNowList } = await import('./live-now');

const nothing: LiveNow = {
  streamLive: false,
  games: [],
  prediction: null,
  giveawayOpen: false,
  hunt: null,
  raffles: [],
  slotCalls: null,
};
const game = (n: number): LiveNow['games'][number] => ({
  id: `g${n}`,
  kind: 'split-or-steal',
  title: 'Split or Steal',
  players: ['Ann', 'Bob'],
  status: 'Choosing',
  link: `/game/splitorsteal/g${n}`,
  createdAt: '2026-11-28T09:00:00.000Z',
});

function serve(live: LiveNow, limit?: number) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json(live)),
  );
  renderWithQueries(
    <MemoryRouter>
      <LiveNowList {...(limit === undefined ? {} : { limit })} />
    </MemoryRouter>,
  );
}

const hrefOf = (name: RegExp) => screen.getByRole('article', { name }).querySelector('a')?.getAttribute('href');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Live now', () => {
  it('says so when nothing runs', async () => {
    serve(nothing);
    expect(await screen.findByText(/^Nothing is live right now\./)).toBeTruthy();
    expect(screen.queryAllByRole('article')).toHaveLength(0);
  });

  it('links each game to its page, the prediction and the giveaway to Kick chat, the hunt to /hunt', async () => {
    serve({
      ...nothing,
      games: [game(1)],
      prediction: { question: 'Bonus before 10?', status: 'locked' },
      giveawayOpen: true,
      hunt: { id: 'h1', name: 'Friday hunt', guessingOpen: true, link: '/hunt' },
    });
    await screen.findByRole('article', { name: /^Split or Steal/ });
    expect(screen.getByRole('article', { name: /^Split or Steal/ }).textContent).toContain('Ann vs Bob');
    expect(hrefOf(/^Split or Steal/)).toBe('/game/splitorsteal/g1');
    expect(screen.getByRole('article', { name: 'Prediction: Bets closed, result soon' }).textContent).toContain(
      'Bonus before 10?',
    );
    expect(hrefOf(/^Prediction/)).toBe('https://kick.com/vex');
    expect(hrefOf(/^Giveaway: Entries open/)).toBe('https://kick.com/vex');
    expect(screen.getByRole('article', { name: /^Bonus hunt: Guessing open/ }).textContent).toContain('Friday hunt');
    expect(hrefOf(/^Bonus hunt/)).toBe('/hunt');
  });

  it('links an open raffle to its page and open slot calls to /calls, with the queue', async () => {
    serve({
      ...nothing,
      raffles: [{ id: 'r1', title: 'Knife raffle', closesAt: '2026-11-28T21:30:00.000Z', link: '/raffles/r1' }],
      slotCalls: { queued: 3, link: '/calls' },
    });
    await screen.findByRole('article', { name: /^Raffle: Tickets on sale until/ });
    expect(screen.getByRole('article', { name: /^Raffle/ }).textContent).toContain('Knife raffle');
    expect(hrefOf(/^Raffle/)).toBe('/raffles/r1');
    expect(
      screen.getByRole('article', { name: 'Slot calls: Calls open · 3 calls in the queue' }).textContent,
    ).toContain('!sr [SLOT]');
    expect(hrefOf(/^Slot calls/)).toBe('/calls');
  });

  it('shows /live’s text in full, and only the home page’s ends after two lines', async () => {
    const question = 'Will the hunt finish in profit after the last bonus of the night?';
    serve({ ...nothing, prediction: { question, status: 'open' } });
    const card = await screen.findByRole('article', { name: /^Prediction/ });
    expect(card.className).toContain('kb-live-full');
    expect(card.textContent).toContain(question);
    cleanup();
    serve({ ...nothing, prediction: { question, status: 'open' } }, 4);
    expect((await screen.findByRole('article', { name: /^Prediction/ })).className).not.toContain('kb-live-full');
  });

  it('shows the first few on the home page and links to all of them', async () => {
    serve({ ...nothing, games: [1, 2, 3, 4, 5].map(game), giveawayOpen: true }, 4);
    await screen.findAllByRole('article');
    expect(screen.getAllByRole('article')).toHaveLength(4);
    expect(screen.getByRole('link', { name: 'See all 6 live →' }).getAttribute('href')).toBe('/live');
  });
});
