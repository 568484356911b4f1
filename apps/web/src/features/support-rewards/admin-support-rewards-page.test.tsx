/**
 * Support Rewards page: shows the amounts, checks a field as the admin types (the API's schema),
 * saves through the API, and lists the rewards paid with a Reverse button on paid ones.
 */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithQueries } from '../../test/render';

const { toastError, toastSuccess } = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock('react-toastify', () => ({ toast: { error: toastError, success: toastSuccess } }));

const { default: AdminSupportRewardsPage } = await import('./admin-support-rewards-page');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const settings = {
  enabled: true,
  subPoints: 500,
  giftPoints: 500,
  kickPoints: 10,
  followPoints: 100,
  dailyCap: 5000,
  pendingHours: 72,
  updatedAt: '2026-01-05T10:00:00Z',
};
const reward = {
  id: 7,
  kind: 'gift',
  kickUsername: 'GenerousGifter',
  username: 'Gina',
  units: 3,
  amount: 1500,
  status: 'paid',
  note: null,
  eventAt: '2026-01-05T10:00:00Z',
  paidAt: '2026-01-05T10:00:00Z',
};

describe('Support Rewards', () => {
  it('checks and saves the amounts, and reverses a paid reward', async () => {
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/admin/support-rewards/settings' && init?.method === 'PUT') {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        return Response.json({
          message: 'Support rewards saved.',
          settings: { ...settings, giftPoints: Number(body.giftPoints) },
        });
      }
      if (url === '/api/admin/support-rewards/settings') return Response.json(settings);
      if (url.startsWith('/api/admin/support-rewards/7/reverse')) {
        return Response.json({ message: 'Reward reversed.', reward: { ...reward, status: 'reversed' } });
      }
      if (url.startsWith('/api/admin/support-rewards')) {
        return Response.json({ items: [reward], total: 1, page: 1, pageSize: 50 });
      }
      return Response.json([]);
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithQueries(<AdminSupportRewardsPage />);
    const perGift = await screen.findByLabelText('Points per gifted sub (to the gifter)');
    expect((perGift as HTMLInputElement).value).toBe('500');
    fireEvent.change(perGift, { target: { value: '1.234' } });
    expect(
      await screen.findByText('Points per gifted sub: Enter a number of points with at most 2 decimals, like 500.'),
    ).toBeTruthy();
    fireEvent.change(perGift, { target: { value: '750' } });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(false));
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    await waitFor(() => expect(toastSuccess).toHaveBeenCalledWith('Support rewards saved.'));
    const put = fetchMock.mock.calls.find(([, i]) => i?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toMatchObject({ giftPoints: 750, pendingHours: 72, enabled: true });

    expect(await screen.findByText('GenerousGifter')).toBeTruthy();
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Reverse' })));
    await waitFor(() => expect(toastSuccess).toHaveBeenCalledWith('Reward reversed.'));
  });
});
