/**
 * A hub connection made before socket.io-client has loaded (the page's first connection): what the
 * feature asked of it waits, in order, and runs once the client is there (src/lib/hub.ts).
 */
import { describe, expect, it, vi } from 'vitest';
import { splitOrStealHub } from '@kickback/common/hubs/split-or-steal';

vi.mock('socket.io-client', async () => ({ io: (await import('./fake-socket')).fakeIo }));
const { sockets } = await import('./fake-socket');
const { HubConnection, loadSocketClient } = await import('./hub');

describe('HubConnection before socket.io-client loads', () => {
  it('opens no socket yet, then connects with the listeners the feature added; a stop before then closes it', async () => {
    const seen: unknown[] = [];
    const statuses: string[] = [];
    const first = new HubConnection(splitOrStealHub, { gameid: 'a' }, { onStatus: (s) => statuses.push(s) }).start();
    first.on('ReceiveGameState', (state) => seen.push(state));
    const second = new HubConnection(splitOrStealHub, { gameid: 'b' }).start();
    second.stop();
    expect(sockets).toHaveLength(0);
    expect(first.connected).toBe(false);
    expect(statuses).toEqual(['connecting']);

    await loadSocketClient();
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    const [a, b] = sockets;
    expect(a!.url).toBe('/SplitOrSteal');
    expect(a!.connects).toHaveLength(1);
    a!.fire('ReceiveGameState', { version: 1 });
    expect(seen).toEqual([{ version: 1 }]);
    // Stopped before the client loaded: it connected, then was closed with its listeners removed.
    expect(b!.handlers.size).toBe(0);
  });
});
