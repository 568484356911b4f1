/**
 * The in-process Socket.IO adapter with a leaner broadcast (the spectator fan-out of a game room:
 * bench/spectators.ts). Socket.IO's own adapter already encodes a broadcast once; per socket it then
 * still records every visited id in a set (to skip a socket met in two rooms) and hands the
 * websocket frame over as two buffers, header and payload, which each socket writes with cork,
 * writev and uncork. Here a broadcast to one room visits the room's ids as they are (a room holds
 * each id once), and the frame is one buffer written with one plain write per socket. Everything
 * else — joins, `except`, disconnects, fetches, several rooms — is the adapter's own behaviour.
 * With Redis the streams adapter is used instead (it extends Socket.IO's cluster adapter).
 */
import { Adapter, type BroadcastOptions, type Room, type SocketId } from 'socket.io-adapter';
import * as wsModule from 'ws';

interface Encoder {
  encode(packet: unknown): unknown[];
}
interface EngineClient {
  writeToEngine(packets: unknown[], opts: Record<string, unknown>): void;
}
interface AdapterSocket {
  client: EngineClient;
  notifyOutgoingListeners?: (packet: unknown) => void;
}

// Sender.frame is ws's own framing (Socket.IO's adapter uses it the same way), untyped in @types/ws.
const frame = (wsModule as unknown as { Sender: { frame(data: Buffer, options: object): Buffer[] } }).Sender.frame;

/** One websocket text frame (unmasked, server to client) holding `data`, as a single buffer. */
export function textFrame(data: string): Buffer {
  const parts = frame(Buffer.from(data), { readOnly: false, mask: false, rsv1: false, opcode: 1, fin: true });
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

export class FanOutAdapter extends Adapter {
  override broadcast(packet: { nsp?: string }, opts: BroadcastOptions): void {
    const flags = opts.flags ?? {};
    const packetOpts: Record<string, unknown> = {
      preEncoded: true,
      volatile: flags.volatile,
      compress: flags.compress,
    };
    packet.nsp = (this.nsp as { name: string }).name;
    const encoded = (this.nsp as { server: { encoder: Encoder } }).server.encoder.encode(packet);
    // "4" is the Engine.IO message packet: the frame the websocket transport would build per socket.
    if (encoded.length === 1 && typeof encoded[0] === 'string')
      packetOpts.wsPreEncodedFrame = [textFrame(`4${encoded[0]}`)];
    const sockets = (this.nsp as { sockets: Map<SocketId, AdapterSocket> }).sockets;
    const send = (socket: AdapterSocket) => {
      socket.notifyOutgoingListeners?.(packet);
      socket.client.writeToEngine(encoded, packetOpts);
    };
    const except = this.exceptIds(opts.except);
    if (opts.rooms.size === 1) {
      const [room] = opts.rooms as Set<Room>;
      for (const id of this.rooms.get(room!) ?? []) {
        if (except.has(id)) continue;
        const socket = sockets.get(id);
        if (socket) send(socket);
      }
      return;
    }
    const seen = new Set<SocketId>(except);
    const ids = opts.rooms.size
      ? [...opts.rooms].flatMap((room) => [...(this.rooms.get(room) ?? [])])
      : [...this.sids.keys()];
    for (const id of ids) {
      if (seen.has(id)) continue;
      seen.add(id);
      const socket = sockets.get(id);
      if (socket) send(socket);
    }
  }

  private exceptIds(rooms: Set<Room> | undefined): Set<SocketId> {
    if (!rooms?.size) return new Set();
    if (rooms.size === 1) return this.rooms.get([...rooms][0]!) ?? new Set();
    const ids = new Set<SocketId>();
    for (const room of rooms) for (const id of this.rooms.get(room) ?? []) ids.add(id);
    return ids;
  }
}
