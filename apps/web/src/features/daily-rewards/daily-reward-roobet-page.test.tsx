/**
 * Roobet daily rewards: a claim says what it earned and the calendar shows today's case claimed
 * with its amount, because the month and today's case refetch after the claim (invalidation).
 */
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithQueries } from '../../test/render';

const { toastError, toastSuccess } = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock('react-toastify', () => ({ toast: { error: toastError, success: toastSuccess } }));
vi.mock('../../shared/auth/auth-context', () => ({
  useAuth: () => ({ user: { openId: 'u1', roobetName: 'vexfan' } }),
}));
vi.mock('../../shared/site-context', () => ({ useSite: () => ({ streamerName: 'Vex' }) }));
vi.mock('../../shared/profile-modal-context', () => ({ useProfileModal: () => ({ openProfile: vi.fn() }) }));
vi.mock('./coin-sound', () => ({ playCoin: vi.fn() }));

const { default: DailyRewardRoobetPage } = await import('./daily-reward-roobet-page');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  toastError.mockReset();
  toastSuccess.mockReset();
});

describe('Roobet daily rewards', () => {
  it("a claim turns today's case claimed with its amount, by refetching the month", async () => {
    const claims: Array<{ createTime: string; gemAmount: number }> = [];
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === 'POST') {
        claims.push({ createTime: new Date().toISOString(), gemAmount: 12.5 });
        return Response.json({ gemAmount: 12.5 });
      }
      if (url === '/api/DailyReward/GetMontlyRewardsRoobet') return Response.json(claims);
      if (url === '/api/DailyReward/RoobetToday') {
        return Response.json(
          claims.length === 0
            ? { claimable: true, reason: null, message: null }
            : { claimable: false, reason: 'already_claimed', message: 'Already claimed today.' },
        );
      }
      return Response.json({ sites: [] });
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithQueries(<DailyRewardRoobetPage />);
    const today = new Date().getUTCDate();
    const card = await screen.findByRole('button', { name: `Day ${today}, available, press to claim` });
    await act(async () => void fireEvent.click(card));
    expect(await screen.findByRole('button', { name: `Day ${today}, claimed: 12.50` })).toBeTruthy();
    expect(toastSuccess).toHaveBeenCalledTimes(1);
    expect(screen.getByText('$12.50')).toBeTruthy();
    expect(fetchMock.mock.calls.find(([, i]) => i?.method === 'POST')?.[0]).toBe(
      '/api/DailyReward/GetDailyRewardRoobet',
    );
  });
});
