/**
 * The floor of a spectator broadcast on this machine (bench/spectators.ts): a bare `ws` server
 * speaking just enough Engine.IO / Socket.IO for the spectator crowd, which on `{ type:
 * 'broadcast', version, bytes }` (IPC) builds one state frame of that size stamped with the time,
 * writes it to every socket with one plain write each — no framework, no rooms — and answers
 * `{ type: 'sent', ms, cpuMs, sockets }`: the time and CPU (user + system) of the loop of writes.
 *
 * `node --import tsx bench/lib/bare-broadcast.ts <port>`; prints `ready` when listening.
 */
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import * as wsModule from 'ws';
import { WebSocketServer, type WebSocket } from 'ws';

const port = Number(process.argv[2]);
const http = createServer();
const wss = new WebSocketServer({ server: http, path: '/socket.io/', perMessageDeflate: false });
const sockets = new Set<WebSocket>();
let next = 0;

wss.on('connection', (ws) => {
  const sid = `bare${next++}`;
  ws.send(`0{"sid":"${sid}","upgrades":[],"pingInterval":15000,"pingTimeout":15000,"maxPayload":16384}`);
  ws.on('message', (data) => {
    if (data.toString().startsWith('40/SplitOrSteal,')) {
      ws.send(`40/SplitOrSteal,{"sid":"${sid}"}`);
      sockets.add(ws);
    }
  });
  ws.on('close', () => sockets.delete(ws));
});

// ws's own framing, untyped in @types/ws.
const frame = (wsModule as unknown as { Sender: { frame(data: Buffer, options: object): Buffer[] } }).Sender.frame;

process.on('message', (message: { type: 'broadcast'; version: number; bytes: number }) => {
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const head = `42/SplitOrSteal,["ReceiveGameState",{"version":${message.version},"serverTime":"${new Date().toISOString()}","pad":"`;
  const tail = '"}]';
  const text = head + 'x'.repeat(Math.max(0, message.bytes - head.length - tail.length)) + tail;
  const buffer = Buffer.concat(
    frame(Buffer.from(text), { readOnly: false, mask: false, rsv1: false, opcode: 1, fin: true }),
  );
  for (const ws of sockets) (ws as unknown as { _socket: Socket })._socket.write(buffer);
  const used = process.cpuUsage(cpu);
  process.send!({
    type: 'sent',
    ms: Number(process.hrtime.bigint() - start) / 1e6,
    cpuMs: (used.user + used.system) / 1000,
    sockets: sockets.size,
  });
});

http.listen(port, '127.0.0.1', () => console.log('ready'));
