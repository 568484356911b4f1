/**
 * The live-state hook, driven through the page of High or Low (the engine's tiny test game,
 * packages/common/src/testing): a page of a new live game is this small. The socket is a fake
 * (./fake-socket); the hook's rules are what is checked — resync on every (re)connect, stale
 * versions dropped, the view cleared when the connection closes, the server's clock for the
 * countdown, the private and not-found views.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { highLowHub, type HighLowState } from '@kickback/common/testing/high-low';
import { useSecondsLeft } from '../components/live/use-seconds-left';

vi.mock('socket.io-client', async () => ({ io: (await import('./fake-socket')).fakeIo }));
const { sockets } = await import('./fake-socket');
const { useLiveState, UNATTENDED_RETRY_MS } = await import('./use-live-state');
// The socket client loads with the first connection; loaded here, connections open at once.
await (await import('./hub')).loadSocketClient();
const last = () => sockets.at(-1)!;

const gameid = '7d5e3c1a-1111-4222-8333-444455556666';

function state(version: number, extra: Partial<HighLowState> = {}): HighLowState {
  return {
    id: gameid,
    version,
    phaseEndsAt: '2026-01-05T12:00:10.000Z',
    serverTime: '2026-01-05T12:00:00.000Z',
    status: 2,
    ownerId: 'u1',
    pick: null,
    secret: null,
    prize: '5.00',
    won: null,
    ...extra,
  };
}

/** The whole page of the test game. */
function HighLowPage({ onFailed, retryAfterGivingUpMs }: { onFailed(): void; retryAfterGivingUpMs?: number }) {
  const live = useLiveState({
    hub: highLowHub,
    query: { gameid },
    stateEvent: 'ReceiveGameState',
    fetchState: (c) => c.call('GetGameState'),
    onConnectFailed: onFailed,
    retryAfterGivingUpMs,
  });
  const seconds = useSecondsLeft(live.state?.phaseEndsAt ?? null, live.clockOffset);
  if (!live.state) return <p>view: {live.view}</p>;
  return (
    <p>
      version {live.state.version}, pick {live.state.pick ?? 'hidden'}, {seconds} s left
    </p>
  );
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'Date'] });
  // The browser's clock runs 4 s behind the server's.
  vi.setSystemTime(new Date('2026-01-05T11:59:56.000Z'));
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  sockets.length = 0;
});

const flush = () => act(async () => void (await Promise.resolve()));

async function connect(answer: unknown) {
  last().answers.set('GetGameState', answer);
  last().connected = true;
  await act(async () => last().fire('connect'));
  await flush();
}

describe('useLiveState', () => {
  it('resyncs on connect, counts down on the server clock, and drops stale versions', async () => {
    render(<HighLowPage onFailed={() => undefined} />);
    expect(screen.getByText('view: connecting')).toBeTruthy();
    await connect({ ok: true, data: state(3) });
    // 10 s to the deadline on the server's clock, though the browser thinks it is 14.
    expect(screen.getByText('version 3, pick hidden, 10 s left')).toBeTruthy();

    act(() => last().fire('ReceiveGameState', state(5, { pick: 'high' })));
    expect(screen.getByText('version 5, pick high, 10 s left')).toBeTruthy();
    act(() => last().fire('ReceiveGameState', state(4))); // a late broadcast
    expect(screen.getByText('version 5, pick high, 10 s left')).toBeTruthy();
  });

  it('clears the view when the connection closes and resyncs after the reconnect', async () => {
    const failed = vi.fn();
    render(<HighLowPage onFailed={failed} />);
    await connect({ ok: true, data: state(3) });
    act(() => {
      last().connected = false;
      last().fire('disconnect', 'transport close');
    });
    expect(screen.getByText('view: lost')).toBeTruthy();
    expect(failed).not.toHaveBeenCalled();
    act(() => void vi.advanceTimersByTime(0)); // the first retry is immediate
    await connect({ ok: true, data: state(7) });
    expect(screen.getByText(/version 7/)).toBeTruthy();
    expect(last().emitted.filter((e) => e[1] === 'GetGameState')).toHaveLength(2);
  });

  it('shows the private view when the server answers no state, and not-found for an unknown game', async () => {
    render(<HighLowPage onFailed={() => undefined} />);
    await connect({ ok: true, data: null });
    expect(screen.getByText('view: private')).toBeTruthy();
    cleanup();
    render(<HighLowPage onFailed={() => undefined} />);
    act(() =>
      last().fire('connect_error', Object.assign(new Error('Game not found.'), { data: { code: 'not_found' } })),
    );
    expect(screen.getByText('view: not-found')).toBeTruthy();
  });

  it.each([
    ['an unattended page (an OBS source) tries again on its own', UNATTENDED_RETRY_MS, 1],
    ['a page with someone in front of it waits for them', undefined, 0],
  ])('once the connection is lost, %s', async (_, retryAfterGivingUpMs, extraConnects) => {
    render(<HighLowPage onFailed={() => undefined} retryAfterGivingUpMs={retryAfterGivingUpMs} />);
    await connect({ ok: true, data: state(3) });
    act(() => {
      last().connected = false;
      last().fire('disconnect', 'transport close');
    });
    act(() => void vi.advanceTimersByTime(0)); // the hub's own immediate retry
    const before = last().connects.length;
    act(() => void vi.advanceTimersByTime(UNATTENDED_RETRY_MS - 1));
    expect(last().connects).toHaveLength(before);
    act(() => void vi.advanceTimersByTime(1));
    expect(last().connects).toHaveLength(before + extraConnects);
  });

  it('reports a failed resync', async () => {
    const failed = vi.fn();
    render(<HighLowPage onFailed={failed} />);
    await connect({ ok: false, error: 'boom' });
    expect(failed).toHaveBeenCalledTimes(1);
  });
});
