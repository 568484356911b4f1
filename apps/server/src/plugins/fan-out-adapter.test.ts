/**
 * The leaner in-process fan-out: every socket of the audience gets the frame exactly once, and no
 * other socket gets it — one room, one room with exceptions (the per-audience views of a game room),
 * several rooms sharing sockets, and the whole namespace.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Server } from 'socket.io';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { FanOutAdapter, textFrame } from './fan-out-adapter';

describe('FanOutAdapter', () => {
  const http = createServer();
  const io = new Server(http, { transports: ['websocket'], adapter: FanOutAdapter });
  const clients: Record<string, ClientSocket> = {};
  const received: Record<string, unknown[]> = {};
  // Who is in which room (the server decides, as the hub layer does at the handshake).
  const membership: Record<string, string[]> = {
    a: ['game', 'other'],
    b: ['game', 'game#user:b'],
    c: ['game', 'game#admins'],
    d: ['other'],
    e: [],
  };

  beforeAll(async () => {
    io.on('connection', (socket) => {
      const name = socket.handshake.query.name as string;
      void socket.join(membership[name]!);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    await Promise.all(
      Object.keys(membership).map(async (name) => {
        const client = connect(`http://127.0.0.1:${port}`, { transports: ['websocket'], query: { name } });
        received[name] = [];
        client.on('state', (payload: unknown) => received[name]!.push(payload));
        clients[name] = client;
        await new Promise<void>((resolve) => client.once('connect', () => resolve()));
      }),
    );
    // The joins happen in the server's connection handler: wait until every room is filled.
    while (io.of('/').adapter.rooms.get('game')?.size !== 3 || io.of('/').adapter.rooms.get('other')?.size !== 2) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
  afterAll(async () => {
    for (const client of Object.values(clients)) client.close();
    await io.close();
  });

  /** Sends, then waits for the frames to land (a ping of every client orders after them). */
  async function delivered(send: () => void): Promise<Record<string, unknown[]>> {
    for (const list of Object.values(received)) list.length = 0;
    send();
    await Promise.all(
      Object.entries(clients).map(async ([name, client]) => {
        const socket = io.of('/').sockets.get(client.id!)!;
        expect(socket.handshake.query.name).toBe(name);
        await socket.timeout(5000).emitWithAck('flushed');
      }),
    );
    return Object.fromEntries(Object.entries(received).map(([name, list]) => [name, [...list]]));
  }

  beforeAll(() => {
    for (const client of Object.values(clients)) client.on('flushed', (ack: () => void) => ack());
  });

  it('one room: each member once, nobody else', async () => {
    const got = await delivered(() => io.to('game').emit('state', { v: 1, text: 'é ✓' }));
    expect(got).toEqual({
      a: [{ v: 1, text: 'é ✓' }],
      b: [{ v: 1, text: 'é ✓' }],
      c: [{ v: 1, text: 'é ✓' }],
      d: [],
      e: [],
    });
  });

  it('one room except audience rooms: the watchers only (each view goes to its own audience)', async () => {
    const got = await delivered(() => {
      io.to('game').except(['game#user:b', 'game#admins']).emit('state', 'watcher');
      io.to('game#admins').except(['game#user:b']).emit('state', 'admin');
      io.to('game#user:b').emit('state', 'b');
    });
    expect(got).toEqual({ a: ['watcher'], b: ['b'], c: ['admin'], d: [], e: [] });
  });

  it('several rooms sharing a socket: once each; the whole namespace: everyone once', async () => {
    expect(await delivered(() => io.to(['game', 'other']).except('game#admins').emit('state', 2))).toEqual({
      a: [2],
      b: [2],
      c: [],
      d: [2],
      e: [],
    });
    expect(await delivered(() => io.emit('state', 3))).toEqual({ a: [3], b: [3], c: [3], d: [3], e: [3] });
  });

  it('large payloads keep their frame (16- and 64-bit lengths)', async () => {
    const medium = 'm'.repeat(70_000);
    const got = await delivered(() => io.to('other').emit('state', medium));
    expect(got.a).toEqual([medium]);
    expect(textFrame('x'.repeat(200)).length).toBe(200 + 4);
    expect(textFrame('x'.repeat(70_000)).length).toBe(70_000 + 10);
  });
});
