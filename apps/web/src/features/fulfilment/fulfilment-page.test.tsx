/**
 * Fulfilment: marking an item delivered sends the note and, once the server says so, the queue
 * refetches (invalidation), so the item leaves the pending list without a reload.
 */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithQueries } from '../../test/render';

const { toastError, toastSuccess } = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock('react-toastify', () => ({ toast: { error: toastError, success: toastSuccess } }));
const auth = vi.hoisted(() => ({ role: 'Admin' }));
vi.mock('../../shared/auth/auth-context', () => ({ useAuth: () => ({ user: { role: auth.role } }) }));

const { default: FulfilmentPage } = await import('./fulfilment-page');

const item = {
  id: 7,
  kind: 'order',
  reference: 'o-7',
  description: 'Signed Vex Jersey',
  amount: 1500,
  unit: 'points',
  status: 'pending',
  refund: { currency: 'points', amount: 1500 },
  credit: null,
  note: null,
  handledBy: null,
  handledAt: null,
  createdAt: '2026-01-05T10:00:00.000Z',
  user: {
    id: 'u1',
    username: 'Buyer',
    steamId: '76561190000000001',
    avatarUrl: null,
    kickUsername: null,
    discordUsername: null,
    clashId: null,
    rustMagicId: null,
    roobetName: null,
    casesId: null,
    excluded: false,
  },
  delivery: null,
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  toastError.mockReset();
  toastSuccess.mockReset();
  auth.role = 'Admin';
});

const held = {
  ...item,
  id: 8,
  kind: 'staff_prize',
  reference: 'splitorsteal:g1:1',
  description: 'Split or Steal game g1: 50,000,000 points held for an Admin’s approval',
  amount: 50_000_000,
  refund: null,
  credit: { currency: 'points', amount: 50_000_000 },
};

function serveQueue(items: unknown[]) {
  const fetchMock = vi.fn(async (_url: string, init?: RequestInit) => {
    if (init?.method === 'POST') return Response.json({ message: 'Approved; 50000000 points paid.' });
    return Response.json({ items, total: items.length, page: 1, pageSize: 20, kinds: [], pendingCount: items.length });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('Fulfilment', () => {
  it('delivering an item refetches the queue, which no longer lists it as pending', async () => {
    let pending = [item];
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === 'POST') {
        pending = [];
        return Response.json({ message: 'Marked as delivered.' });
      }
      expect(url).toContain('/api/admin/fulfilment');
      return Response.json({
        items: pending,
        total: pending.length,
        page: 1,
        pageSize: 20,
        kinds: ['order'],
        pendingCount: pending.length,
      });
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithQueries(<FulfilmentPage />);
    await act(async () =>
      fireEvent.click(await screen.findByRole('button', { name: 'Mark Signed Vex Jersey for Buyer delivered' })),
    );
    fireEvent.change(screen.getByLabelText(/^Note/), { target: { value: 'tip 42' } });
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Mark delivered' })));
    await waitFor(() => expect(toastSuccess).toHaveBeenCalledWith('Marked as delivered.'));
    const post = fetchMock.mock.calls.find(([, i]) => i?.method === 'POST');
    expect(post?.[0]).toBe('/api/admin/fulfilment/7/deliver');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ note: 'tip 42' });
    expect(await screen.findByText('All caught up — nothing waiting to be delivered.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Mark Signed Vex Jersey for Buyer delivered' })).toBeNull();
  });

  it('a held-back prize: an Admin approves and pays it; a Moderator sees it awaiting approval, with no Deliver', async () => {
    const fetchMock = serveQueue([held]);
    renderWithQueries(<FulfilmentPage />);
    const approve = await screen.findByRole('button', { name: `Approve and pay ${held.description} for Buyer` });
    expect(screen.getAllByText('Prize awaiting approval').length).toBeGreaterThan(1); // the row's badge too
    await act(async () => fireEvent.click(approve));
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Approve and pay' })));
    await waitFor(() => expect(toastSuccess).toHaveBeenCalledWith('Approved; 50000000 points paid.'));
    expect(fetchMock.mock.calls.find(([, i]) => i?.method === 'POST')?.[0]).toBe('/api/admin/fulfilment/8/deliver');
    cleanup();

    auth.role = 'Moderator';
    serveQueue([held]);
    renderWithQueries(<FulfilmentPage />);
    expect(await screen.findByText('Awaiting an Admin’s approval')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Approve|Mark .* delivered/ })).toBeNull();
  });
});
