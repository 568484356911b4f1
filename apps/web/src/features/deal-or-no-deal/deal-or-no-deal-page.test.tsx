/**
 * The Deal or No Deal page over a fake hub socket (lib/fake-socket): who gets which buttons, what
 * each owner's button calls, the contract's toasts when a call or the state fetch fails, and the
 * thinking music the server asks for, and staff cancelling through the HTTP endpoint.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DealOrNoDealState } from '@kickback/common/hubs/deal-or-no-deal';
import { DEFAULT_AMOUNTS } from '@kickback/common/games/deal-or-no-deal';

vi.mock('socket.io-client', async () => ({ io: (await import('../../lib/fake-socket')).fakeIo }));
const toasts = vi.hoisted(() => ({ error: [] as string[], success: [] as string[] }));
vi.mock('react-toastify', () => ({
  toast: { error: (m: string) => toasts.error.push(m), success: (m: string) => toasts.success.push(m) },
}));
vi.mock('../../components/live/confetti', () => ({ celebrate: () => undefined }));
const auth = vi.hoisted(() => ({
  user: null as { openId: string; role: 'User' | 'Admin' } | null,
  signIn: () => undefined,
}));
vi.mock('../../shared/auth/auth-context', () => ({
  useAuth: () => ({
    user: auth.user,
    isAuthenticated: auth.user !== null,
    initialising: false,
    signIn: auth.signIn,
    refreshUser: async () => undefined,
  }),
}));

const { sockets } = await import('../../lib/fake-socket');
const { default: DealOrNoDealPage } = await import('./deal-or-no-deal-page');
// The socket client loads with the first connection; loaded here, connections open at once.
await (await import('../../lib/hub')).loadSocketClient();
const { createQueryClient, endpointKey } = await import('../../lib/query');
const { dealOrNoDealEndpoints } = await import('@kickback/common/http/deal-or-no-deal');
const { nowPlaying, stopShowSounds } = await import('./show-sounds');
const last = () => sockets.at(-1)!;

const gameId = '7d5e3c1a-1111-4222-8333-444455556666';
const OWNER = 'owner-id';

function state(over: Partial<DealOrNoDealState> = {}): DealOrNoDealState {
  return {
    id: gameId,
    version: 2,
    phaseEndsAt: null,
    serverTime: new Date().toISOString(),
    status: 1,
    amounts: DEFAULT_AMOUNTS.map((value) => ({ value, isOpened: false })),
    boxesInfo: Array.from({ length: 24 }, (_, i) => ({ id: i + 1, isOpened: false, amount: null })),
    primaryBoxId: null,
    primaryBox: null,
    lastOpenedBox: null,
    lastOpenedBoxId: null,
    currentOffer: null,
    winningAmount: null,
    remainingBoxCountToOffer: 0,
    round: 0,
    ending: null,
    isPrivate: false,
    user: { userId: OWNER, username: 'Olive', avatarUrl: null },
    commitment: 'ab'.repeat(32),
    seed: null,
    board: null,
    ...over,
  };
}

const flush = () => act(async () => void (await Promise.resolve()));

async function show(initial: DealOrNoDealState | null, answer?: unknown, client = createQueryClient()) {
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[`/game/dealornodeal/${gameId}`]}>
        <Routes>
          <Route path="/game/dealornodeal/:id" element={<DealOrNoDealPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  last().answers.set('GetGameState', answer ?? { ok: true, data: initial });
  last().connected = true;
  await act(async () => last().fire('connect'));
  await flush();
}

const calls = (name: string) => last().emitted.filter((e) => e[1] === name);

class FakeAudio {
  loop = false;
  volume = 1;
  constructor(readonly src: string) {}
  play = () => Promise.resolve();
  pause = () => undefined;
  addEventListener = () => undefined;
}

beforeEach(() => {
  toasts.error.length = 0;
  toasts.success.length = 0;
  auth.user = null;
  vi.stubGlobal('Audio', FakeAudio);
});
afterEach(() => {
  cleanup();
  stopShowSounds();
  vi.unstubAllGlobals();
  sockets.length = 0;
});

describe('the Deal or No Deal page', () => {
  it('gives the owner Start in status 1 and a watcher only the status text', async () => {
    await show(state());
    expect(screen.getByTestId('status-text').textContent).toBe('Waiting for Olive to start.');
    expect(screen.queryByRole('button', { name: 'Start the game' })).toBeNull();
    cleanup();
    auth.user = { openId: OWNER, role: 'User' };
    await show(state());
    fireEvent.click(screen.getByRole('button', { name: 'Start the game' }));
    await flush();
    expect(calls('StartGame')).toHaveLength(1);
  });

  it("lets the owner pick a box in 3 but never their own; a failed pick says 'Unable to select box.'", async () => {
    auth.user = { openId: OWNER, role: 'User' };
    await show(state({ status: 3, primaryBoxId: 7, remainingBoxCountToOffer: 6 }));
    expect(screen.getByTestId('status-text').textContent).toBe('Select 6 more case(s)');
    expect(screen.queryByRole('button', { name: 'Box 7' })).toBeNull(); // it stands on its podium
    last().answers.set('SelectBox', { ok: false, error: 'That box is already open.' });
    fireEvent.click(screen.getByRole('button', { name: 'Box 3' }));
    await flush();
    expect(calls('SelectBox').map((e) => e[2])).toEqual([3]);
    expect(toasts.error).toEqual(['Unable to select box.']);
  });

  it("shows the offer with Deal / No Deal to the owner only; a failed answer says 'Unable to answer the offer.'", async () => {
    const offer = state({ status: 4, primaryBoxId: 7, currentOffer: { amount: 12.27 } });
    await show(offer);
    expect(screen.getByTestId('offer').textContent).toBe('$12.27');
    expect(screen.queryByRole('button', { name: 'Deal' })).toBeNull();
    cleanup();
    auth.user = { openId: OWNER, role: 'User' };
    await show(offer);
    last().answers.set('AnswerOffer', { ok: false, error: 'There is no offer to answer.' });
    fireEvent.click(screen.getByRole('button', { name: 'No Deal' }));
    await flush();
    expect(calls('AnswerOffer').map((e) => e[2])).toEqual([false]);
    expect(toasts.error).toEqual(['Unable to answer the offer.']);
  });

  it('loops the thinking music at 0.4 when the server asks, and stops it when the offer is answered', async () => {
    await show(state({ status: 4, currentOffer: { amount: 5 } }));
    act(() => last().fire('PlaySound', 'ThinkingMusic'));
    expect(nowPlaying()).toEqual([{ src: '/sounds/thinking-music.wav', loop: true, volume: 0.4 }]);
    act(() => last().fire('GameStateChange', state({ version: 3, status: 3, remainingBoxCountToOffer: 5 })));
    expect(nowPlaying()).toEqual([]);
  });

  it('offers Claim The Game to the owner in 0 and Sign In to a visitor', async () => {
    const finished = state({ status: 0, winningAmount: 35, ending: 'keep', primaryBoxId: 7 });
    await show(finished);
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Claim The Game' })).toBeNull();
    cleanup();
    auth.user = { openId: OWNER, role: 'User' };
    await show(finished);
    last().answers.set('Claim', { ok: false, error: 'The game cannot be claimed.' });
    fireEvent.click(screen.getByRole('button', { name: 'Claim The Game' }));
    await flush();
    expect(calls('Claim')).toHaveLength(1);
    expect(toasts.error).toEqual(['The game cannot be claimed.']); // the server's words: the contract has no toast
  });

  it("says 'Unable to get game state.' (once) when the state cannot be read, and shows 'Game Is Private' for no state", async () => {
    await show(null, { ok: false, error: 'System error.' });
    expect(toasts.error).toEqual(['Unable to get game state.']);
    cleanup();
    await show(null);
    expect(screen.getByRole('heading', { name: 'Game Is Private' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeTruthy();
  });

  it("says 'Unable to reconnect the game.' when a game it showed cannot be reached again", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await show(state());
      act(() => {
        last().connected = false;
        last().fire('disconnect', 'transport close');
      });
      // The contract's schedule: retries after 0, 2, 10 and 30 s, each failing, then it stops.
      for (const delay of [0, 2_000, 10_000, 30_000]) {
        act(() => void vi.advanceTimersByTime(delay));
        act(() => last().fire('connect_error', new Error('refused')));
      }
      // The toast library loads with the first toast (src/lib/toast.ts).
      await vi.waitFor(() => expect(toasts.error).toEqual(['Unable to reconnect the game.']));
      expect(screen.getByRole('heading', { name: 'Unable to connect the game' })).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it("lets staff cancel through the endpoint; a refusal keeps the question open with the server's message", async () => {
    let refuse = true;
    const fetchMock = vi.fn(async (_url: string) =>
      refuse
        ? Response.json({ message: 'This game has already ended.' }, { status: 409 })
        : Response.json(state({ status: 7 })),
    );
    vi.stubGlobal('fetch', fetchMock);
    auth.user = { openId: 'staff', role: 'Admin' };
    const client = createQueryClient();
    const recent = endpointKey(dealOrNoDealEndpoints.recent);
    client.setQueryData(recent, []);
    await show(state(), undefined, client);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await act(async () => void fireEvent.click(await screen.findByRole('button', { name: 'Cancel game' })));
    await waitFor(() => expect(toasts.error).toEqual(['This game has already ended.']));
    expect(screen.getByText('Cancel this game?').closest('.modal.show')).toBeTruthy();
    refuse = false;
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Cancel game' })));
    await waitFor(() => expect(document.querySelector('[role=dialog]')).toBeNull());
    expect(client.getQueryState(recent)?.isInvalidated).toBe(true); // the recent games list reads it again
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([
      `/api/DealOrNoDeal/${gameId}/cancel`,
      `/api/DealOrNoDeal/${gameId}/cancel`,
    ]);
  });
});
