import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { splitOrStealHub } from '@kickback/common/hubs/split-or-steal';

vi.mock('socket.io-client', async () => ({ io: (await import('./fake-socket')).fakeIo }));
const { sockets } = await import('./fake-socket');
const last = () => sockets.at(-1)!;
const { HubConnection, reconnectDelay, REQUEST_TIMEOUT_MS } = await import('./hub');
// The socket client loads with the first connection; loaded here, connections open at once.
await (await import('./hub')).loadSocketClient();

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(0);
});
afterEach(() => {
  vi.useRealTimers();
});

const query = { gameid: '7d5e3c1a-1111-4222-8333-444455556666' };

describe('HubConnection', () => {
  it('uses the websocket transport, the hub namespace and the handshake query on a connection of its own, without built-in reconnection', () => {
    new HubConnection(splitOrStealHub, query).start();
    expect(last().url).toBe('/SplitOrSteal');
    // forceNew: a shared connection would carry another hub's handshake query.
    expect(last().options).toMatchObject({ transports: ['websocket'], query, reconnection: false, forceNew: true });
    expect(last().connects).toEqual([0]);
  });

  it('reconnects after 0, 2, 10 and 30 seconds, then stops; a success resets the schedule', () => {
    const closed: Array<{ willRetry: boolean }> = [];
    const statuses: string[] = [];
    const conn = new HubConnection(splitOrStealHub, query, {
      onClosed: (i) => closed.push(i),
      onStatus: (s) => statuses.push(s),
    }).start();
    last().connected = true;
    last().fire('connect');
    last().connected = false;
    vi.setSystemTime(1000);
    last().fire('disconnect', 'transport close');
    for (const wait of [0, 2000, 10_000, 30_000]) {
      vi.advanceTimersByTime(wait);
      last().fire('connect_error', new Error('down'));
    }
    vi.advanceTimersByTime(120_000);
    expect(last().connects).toEqual([0, 1000, 3000, 13_000, 43_000]);
    expect(closed.map((c) => c.willRetry)).toEqual([true, true, true, true, false]);
    expect(statuses.at(-1)).toBe('closed');

    conn.retry();
    last().connected = true;
    last().fire('connect');
    last().connected = false;
    last().fire('disconnect', 'ping timeout');
    vi.advanceTimersByTime(0);
    expect(last().connects.length).toBe(7); // manual retry, then immediately again (attempt 0)
    expect(reconnectDelay(4)).toBeNull();
  });

  it('resyncs after every reconnect and stays down after stop()', () => {
    const connected: boolean[] = [];
    const conn = new HubConnection(splitOrStealHub, query, {
      onConnected: (i) => connected.push(i.reconnected),
    }).start();
    last().fire('connect');
    last().fire('disconnect', 'transport close');
    vi.advanceTimersByTime(0);
    last().fire('connect');
    expect(connected).toEqual([false, true]);
    conn.stop();
    last().fire('disconnect', 'transport close');
    vi.advanceTimersByTime(60_000);
    expect(last().connects.length).toBe(2);
  });

  it('gives up at once when the server refuses the game', () => {
    const refused: unknown[] = [];
    new HubConnection(splitOrStealHub, query, { onRefused: (r) => refused.push(r) }).start();
    last().fire('connect_error', Object.assign(new Error('Game not found.'), { data: { code: 'not_found' } }));
    vi.advanceTimersByTime(60_000);
    expect(refused).toEqual([{ message: 'Game not found.', code: 'not_found' }]);
    expect(last().connects).toEqual([0]);
  });

  it('calls with the 100 s request timeout and unwraps { ok, data } / { ok, error }', async () => {
    const conn = new HubConnection(splitOrStealHub, query).start();
    await expect(conn.call('GetGameState')).rejects.toThrow('Not connected.');
    last().connected = true;
    last().answer = { ok: true, data: { joined: 1 } };
    await expect(conn.call('JoinGame', 1)).resolves.toEqual({ joined: 1 });
    expect(last().emitted.at(-1)).toEqual([REQUEST_TIMEOUT_MS, 'JoinGame', 1]);
    await conn.call('GetChatMessages');
    expect(last().emitted.at(-1)).toEqual([REQUEST_TIMEOUT_MS, 'GetChatMessages']);
    last().answer = { ok: false, error: 'That seat is taken.' };
    await expect(conn.call('JoinGame', 2)).rejects.toThrow('That seat is taken.');
  });
});
