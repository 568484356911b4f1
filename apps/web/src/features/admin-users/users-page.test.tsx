/**
 * Admin → Users: excluding a user refetches the list (invalidation), so the row shows the badge;
 * a refused change refetches it too, so the switch shows what the server holds.
 */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminUser } from '@kickback/common/http/admin-users';
import { renderWithQueries } from '../../test/render';

const { toastError, toastSuccess } = vi.hoisted(() => ({ toastError: vi.fn(), toastSuccess: vi.fn() }));
vi.mock('react-toastify', () => ({ toast: { error: toastError, success: toastSuccess } }));
vi.mock('../../shared/auth/auth-context', () => ({ useAuth: () => ({ user: { openId: 'me' } }) }));

const { default: UsersPage } = await import('./users-page');

const alt: AdminUser = {
  id: '5f0c7a52-8d5e-4d0b-9a0e-3c2b1f4e6a77',
  username: 'AltAccount',
  steamId: '76561190000000002',
  avatarUrl: null,
  kickUsername: null,
  discordUsername: null,
  clashId: null,
  rustMagicId: null,
  roobetName: null,
  casesId: null,
  excluded: false,
  role: 'User',
  points: 0,
  gems: 0,
  createdAt: '2026-01-05T10:00:00.000Z',
  lastLoginAt: null,
  kickBan: null,
};

function serve(change: (init: RequestInit) => Response) {
  const fetchMock = vi.fn(async (_url: string, init?: RequestInit) =>
    init?.method === 'POST' ? change(init) : Response.json({ items: [alt], total: 1, page: 1, pageSize: 20 }),
  );
  vi.stubGlobal('fetch', fetchMock);
  renderWithQueries(<UsersPage />);
  return fetchMock;
}
const reads = (f: ReturnType<typeof serve>) => f.mock.calls.filter(([, i]) => i?.method === 'GET');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  toastError.mockReset();
  toastSuccess.mockReset();
  alt.excluded = false;
  alt.kickBan = null;
});

describe('Admin → Users', () => {
  it('excluding a user refetches the list, which shows them excluded', async () => {
    serve((init) => {
      alt.excluded = (JSON.parse(String(init.body)) as { excluded: boolean }).excluded;
      return Response.json({ message: 'AltAccount is excluded.', user: alt });
    });
    await act(async () => void fireEvent.click(await screen.findByLabelText('Exclude AltAccount')));
    await waitFor(() => expect(toastSuccess).toHaveBeenCalledWith('AltAccount is excluded.'));
    expect(await screen.findByText('excluded')).toBeTruthy();
  });

  it('a refused change refetches the list too', async () => {
    const fetchMock = serve(() => Response.json({ message: 'Not allowed.' }, { status: 403 }));
    await act(async () => void fireEvent.click(await screen.findByLabelText('Exclude AltAccount')));
    await waitFor(() => expect(toastError).toHaveBeenCalledWith('Not allowed.'));
    await waitFor(() => expect(reads(fetchMock)).toHaveLength(2));
  });

  it('shows a Kick ban with its end, and Lift sends the DELETE and refetches the list', async () => {
    alt.kickBan = { reason: 'spam', bannedAt: '2026-01-05T10:00:00.000Z', expiresAt: null };
    const fetchMock = vi.fn(async (_url: string, init?: RequestInit) => {
      if (init?.method === 'DELETE') {
        alt.kickBan = null;
        return Response.json({ message: 'Kick ban lifted: the account takes part again.', user: alt });
      }
      return Response.json({ items: [alt], total: 1, page: 1, pageSize: 20 });
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithQueries(<UsersPage />);
    expect(await screen.findByText('banned on Kick')).toBeTruthy();
    await act(async () => void fireEvent.click(screen.getByLabelText('Lift the Kick ban of AltAccount')));
    await waitFor(() => expect(toastSuccess).toHaveBeenCalledWith('Kick ban lifted: the account takes part again.'));
    expect(fetchMock.mock.calls.find(([, i]) => i?.method === 'DELETE')?.[0]).toBe(
      `/api/admin/users/${alt.id}/kick-ban`,
    );
    await waitFor(() => expect(screen.queryByText('banned on Kick')).toBeNull());
  });
});
