/**
 * Connect Kick Account: each opening asks for a fresh code (none is reused from an earlier
 * opening), an expired code offers a new one, and a failure says so.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithQueries } from '../../test/render';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
vi.mock('../../shared/auth/auth-context', () => ({
  useAuth: () => ({ user: { kickId: null }, refreshUser: vi.fn(async () => null) }),
}));
vi.mock('../../shared/site-context', () => ({
  useSite: () => ({ streamerName: 'Vex', kickChannelUrl: 'https://kick.com/vex' }),
}));

const { ConnectKickModal } = await import('./connect-kick-modal');
const { createQueryClient } = await import('../../lib/query');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function serveCodes(...codes: Array<{ key: string; inMs: number } | null>) {
  const fetchMock = vi.fn(async () => {
    const next = codes.shift();
    return next
      ? Response.json({ key: next.key, expiresAt: new Date(Date.now() + next.inMs).toISOString() })
      : Response.json({ message: 'Too many codes.' }, { status: 429 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const command = () => screen.findByTestId('kick-verify-command');

describe('Connect Kick Account', () => {
  it('an expired code offers a new one, which replaces it', async () => {
    serveCodes({ key: 'OLD111', inMs: -1000 }, { key: 'NEW222', inMs: 600_000 });
    renderWithQueries(<ConnectKickModal show onClose={vi.fn()} />);
    expect((await command()).textContent).toBe('!verify OLD111');
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Get a new code' })));
    await vi.waitFor(async () => expect((await command()).textContent).toBe('!verify NEW222'));
    expect(screen.queryByText('This code has expired.')).toBeNull();
  });

  it('each opening asks for a fresh code', async () => {
    const fetchMock = serveCodes({ key: 'FIRST1', inMs: 600_000 }, { key: 'SECOND', inMs: 600_000 });
    const client = createQueryClient();
    const view = (show: boolean) => (
      <QueryClientProvider client={client}>
        <ConnectKickModal show={show} onClose={vi.fn()} />
      </QueryClientProvider>
    );
    const { rerender } = render(view(true));
    expect((await command()).textContent).toBe('!verify FIRST1');
    rerender(view(false));
    rerender(view(true));
    await vi.waitFor(async () => expect((await command()).textContent).toBe('!verify SECOND'));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('says when no code could be made', async () => {
    serveCodes(null);
    renderWithQueries(<ConnectKickModal show onClose={vi.fn()} />);
    expect(await screen.findByText('No code could be made right now. Close this window and try again.')).toBeTruthy();
  });
});
