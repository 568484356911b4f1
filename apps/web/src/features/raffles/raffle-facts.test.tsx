import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RaffleDetail } from '@kickback/common/http/raffles';
import { renderWithQueries } from '../../test/render';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
vi.mock('../../shared/auth/auth-context', () => ({
  useAuth: () => ({ user: { points: '500.00' }, refreshUser: vi.fn() }),
}));

const { RaffleFacts } = await import('./raffle-facts');
const { BuyTickets } = await import('./buy-tickets');

afterEach(cleanup);

const raffle = (over: Partial<RaffleDetail>): RaffleDetail => ({
  id: 'r1',
  title: 'Knife raffle',
  description: '',
  imageUrl: null,
  status: 'open',
  ticketPrice: 1,
  maxTicketsPerUser: 10,
  sellTickets: true,
  opensAt: new Date(Date.now() - 60_000).toISOString(),
  closesAt: new Date(Date.now() + 60_000).toISOString(),
  ticketsSold: 41,
  prizes: [],
  myTickets: null,
  mine: null,
  odds: null,
  winners: [],
  requireKick: false,
  requireVerifiedPartner: false,
  subsOnly: false,
  seedHash: null,
  snapshotHash: null,
  serverSeed: null,
  drawnAt: null,
  ...over,
});

describe('a raffle with bought and free support tickets', () => {
  // 2 bought + 7 free: the cap of 10 applies to the bought ones, so 8 more may be bought (not 10 − 9).
  const mine = raffle({ myTickets: 9, mine: { bought: 2, free: 7, moreAllowed: 8 }, odds: 9 / 41 });

  it('shows the tickets, the bought ones against the cap, and the free ones apart', () => {
    render(<RaffleFacts raffle={mine} />);
    expect(screen.getByTestId('my-tickets').textContent).toBe('9');
    expect(screen.getByTestId('my-bought').textContent).toBe('2 / 10');
    expect(screen.getByTestId('my-free').textContent).toBe('7');
  });

  it("says how many more the server will sell: its own count, not the page's", () => {
    renderWithQueries(<BuyTickets raffle={mine} />);
    expect(screen.getByTestId('more-allowed').textContent).toMatch(/^8 more to buy · /);
  });

  it('with free tickets beyond the cap, still lets the bought ones be bought', () => {
    renderWithQueries(<BuyTickets raffle={raffle({ myTickets: 15, mine: { bought: 4, free: 11, moreAllowed: 6 } })} />);
    expect(screen.getByTestId('more-allowed').textContent).toMatch(/^6 more to buy · /);
  });
});
