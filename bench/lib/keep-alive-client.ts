/**
 * A deliberately minimal HTTP/1.1 client for load generation: a fixed set of keep-alive sockets,
 * requests written as pre-built buffers, and responses parsed only as far as the status line and
 * Content-Length. It costs a few microseconds of CPU per request, where `fetch` costs around half a
 * millisecond — which matters when the client shares two cores with the server and the database it
 * measures. It is a measuring tool, not a general client: one request at a time per socket, no
 * chunked bodies, no redirects.
 */
import { connect, type Socket } from 'node:net';

interface Pending {
  request: Buffer;
  resolve: (status: number) => void;
  reject: (err: Error) => void;
}

class Connection {
  private socket: Socket;
  private buffered: Buffer | null = null;
  private current: Pending | null = null;

  constructor(
    port: number,
    private readonly onIdle: (conn: Connection) => void,
  ) {
    this.socket = connect({ port, host: '127.0.0.1', noDelay: true });
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('error', (err) => this.fail(err));
    this.socket.on('close', () => this.fail(new Error('connection closed')));
  }

  send(job: Pending): void {
    this.current = job;
    this.socket.write(job.request);
  }

  close(): void {
    this.socket.destroy();
  }

  private fail(err: Error): void {
    const job = this.current;
    this.current = null;
    job?.reject(err);
  }

  private onData(chunk: Buffer): void {
    const data = this.buffered ? Buffer.concat([this.buffered, chunk]) : chunk;
    const headEnd = data.indexOf('\r\n\r\n');
    if (headEnd < 0) {
      this.buffered = data;
      return;
    }
    const head = data.toString('latin1', 0, headEnd);
    const match = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!match) {
      this.fail(new Error(`response without Content-Length: ${head.split('\r\n')[0]}`));
      return;
    }
    const total = headEnd + 4 + Number(match[1]);
    if (data.length < total) {
      this.buffered = data;
      return;
    }
    this.buffered = data.length > total ? data.subarray(total) : null;
    const status = Number(head.slice(9, 12));
    const job = this.current;
    this.current = null;
    if (!job) return; // an answer nobody asked for (a proxy's 408 on an idle connection)
    job.resolve(status);
    this.onIdle(this);
  }
}

export class KeepAliveClient {
  private readonly idle: Connection[] = [];
  private readonly all: Connection[] = [];
  private readonly queue: Pending[] = [];

  constructor(port: number, connections: number) {
    for (let i = 0; i < connections; i++) {
      const conn = new Connection(port, (c) => this.release(c));
      this.all.push(conn);
      this.idle.push(conn);
    }
  }

  /** Sends one pre-built request; resolves with the response's status code. */
  send(request: Buffer): Promise<number> {
    return new Promise((resolve, reject) => {
      const job = { request, resolve, reject };
      const conn = this.idle.pop();
      if (conn) conn.send(job);
      else this.queue.push(job);
    });
  }

  close(): void {
    for (const conn of this.all) conn.close();
  }

  private release(conn: Connection): void {
    const job = this.queue.shift();
    if (job) conn.send(job);
    else this.idle.push(conn);
  }
}
