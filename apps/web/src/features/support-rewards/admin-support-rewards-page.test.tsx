/**
 * Support Rewards page: shows the amounts, checks a field as the admin types (the API's schema),
 * saves through the API, lists the rewards paid a page at a time with a Reverse button on paid ones,
 * and grants a missed reward (the schema's and the server's messages on their fields, the table
 * refreshed).
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
  giftHoldMinutes: 5,
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
  holdUntil: null,
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
      if (url === '/api/admin/support-rewards/held') return Response.json([]);
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
    expect(JSON.parse(String(put?.[1]?.body))).toMatchObject({
      giftPoints: 750,
      pendingHours: 72,
      giftHoldMinutes: 5,
      enabled: true,
    });

    expect(await screen.findByText('GenerousGifter')).toBeTruthy();
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Reverse' })));
    await waitFor(() => expect(toastSuccess).toHaveBeenCalledWith('Reward reversed.'));
  });

  it('lists the gifted subs on hold with when they pay, and reverses one before it pays', async () => {
    const held = { ...reward, id: 9, status: 'held', amount: 0, paidAt: null, holdUntil: '2026-01-05T10:05:00Z' };
    let heldNow = [held];
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/admin/support-rewards/settings') return Response.json(settings);
      if (url === '/api/admin/support-rewards/9/reverse' && init?.method === 'POST') {
        heldNow = [];
        return Response.json({ message: 'Reward reversed.', reward: { ...held, status: 'reversed', holdUntil: null } });
      }
      if (url === '/api/admin/support-rewards/held') return Response.json(heldNow);
      if (url.startsWith('/api/admin/support-rewards?'))
        return Response.json({ items: [], total: 0, page: 1, pageSize: 50 });
      return Response.json([]);
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithQueries(<AdminSupportRewardsPage />);
    const list = await screen.findByRole('list', { name: 'Gifted subs on hold' });
    expect(list.textContent).toContain('GenerousGifter gifted 3 subs (Gina)');
    expect(list.textContent).toContain('pays at');
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Reverse' })));
    await waitFor(() => expect(toastSuccess).toHaveBeenCalledWith('Reward reversed.'));
    expect(await screen.findByText('No gifted subs on hold.')).toBeTruthy();
  });

  it('pages through the rewards with the pager', async () => {
    const pages: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/api/admin/support-rewards/settings') return Response.json(settings);
        if (url.startsWith('/api/admin/support-rewards?')) {
          const page = Number(new URL(url, 'http://x').searchParams.get('page'));
          pages.push(String(page));
          const items = [{ ...reward, id: page, kickUsername: `Gifter_page_${page}` }];
          return Response.json({ items, total: 120, page, pageSize: 50 });
        }
        return Response.json([]);
      }),
    );
    renderWithQueries(<AdminSupportRewardsPage />);
    expect(await screen.findByText('Gifter_page_1')).toBeTruthy();
    expect(screen.getByText('1 / 3')).toBeTruthy();
    await act(async () => void fireEvent.click(screen.getByLabelText('Next page')));
    expect(await screen.findByText('Gifter_page_2')).toBeTruthy();
    expect(screen.getByText('2 / 3')).toBeTruthy();
    expect(pages).toContain('2');
  });

  it('grants a missed reward: checks the fields, shows the server refusal on its field, refreshes the table', async () => {
    let listed = 0;
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/admin/support-rewards/settings') return Response.json(settings);
      if (url === '/api/admin/support-rewards/grant') {
        const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
        if (body.user === 'Nobody') {
          const message = 'User: no linked Kick account or site user is called "Nobody".';
          return Response.json({ message, fields: [{ path: 'user', message }] }, { status: 400 });
        }
        return Response.json({ message: 'Reward granted.', reward });
      }
      if (url.startsWith('/api/admin/support-rewards?')) {
        listed += 1;
        return Response.json({ items: [reward], total: 1, page: 1, pageSize: 50 });
      }
      return Response.json([]);
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithQueries(<AdminSupportRewardsPage />);
    await screen.findByText('GenerousGifter');
    const grant = screen.getByRole('button', { name: 'Grant' });
    await act(async () => void fireEvent.click(grant));
    expect(await screen.findByText('User: enter a Kick name or a site user name.')).toBeTruthy();
    expect(await screen.findByText('Note: say which event was missed.')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([u]) => u === '/api/admin/support-rewards/grant')).toBe(false);

    fireEvent.change(screen.getByLabelText('Kick name or site user'), { target: { value: 'Nobody' } });
    fireEvent.change(screen.getByLabelText('Units (subs, KICKs)'), { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'Kick dropped the gift event' } });
    await act(async () => void fireEvent.click(grant));
    expect(await screen.findByText('User: no linked Kick account or site user is called "Nobody".')).toBeTruthy();
    await waitFor(() =>
      expect(toastError).toHaveBeenCalledWith('User: no linked Kick account or site user is called "Nobody".'),
    );

    fireEvent.change(screen.getByLabelText('Kick name or site user'), { target: { value: 'GenerousGifter' } });
    const before = listed;
    await act(async () => void fireEvent.click(grant));
    await waitFor(() => expect(toastSuccess).toHaveBeenCalledWith('Reward granted.'));
    const sent = fetchMock.mock.calls.filter(([u]) => u === '/api/admin/support-rewards/grant').at(-1);
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({
      user: 'GenerousGifter',
      kind: 'gift',
      units: 3,
      note: 'Kick dropped the gift event',
    });
    await waitFor(() => expect(listed).toBeGreaterThan(before));
    expect((screen.getByLabelText('Kick name or site user') as HTMLInputElement).value).toBe('');
  });
});
