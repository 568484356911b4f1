/**
 * The cheapest HTTP/1.1 sender we could make for open-loop load: a few keep-alive sockets, each
 * carrying many requests at once (HTTP/1.1 pipelining: the server reads them as they come and
 * answers each socket's requests in order), requests written as pre-built bytes (corked, so what
 * one turn of the event loop sends leaves in one write per socket), and responses read only as
 * far as the status, Content-Length and the body's bytes. No promise, string or object per
 * request: each answer calls one callback with the request's tag (its index in the caller's plan).
 * Like `keep-alive-client.ts` it is a measuring tool, not a general client: no chunked bodies, no
 * redirects; a socket that fails answers its pending requests with status 0 and is replaced.
 */
import { connect, type Socket } from 'node:net';

/** `status` 0: the connection failed before the answer came. `body` is only valid during the call. */
export type Answered = (tag: number, status: number, body: Buffer) => void;

const HEAD_END = Buffer.from('\r\n\r\n');
const LENGTH_LOWER = Buffer.from('content-length:');
const LENGTH_TITLE = Buffer.from('Content-Length:');
const EMPTY = Buffer.alloc(0);

class Pipe {
  private socket!: Socket;
  /** Tags of the requests written and not yet answered, oldest first (from `head`). */
  private tags: number[] = [];
  private head = 0;
  private rest: Buffer | null = null;
  /** Connections lost in a row without an answer in between; past a few the server is gone. */
  private failures = 0;
  corked = false;

  constructor(
    private readonly port: number,
    private readonly answered: Answered,
  ) {
    this.open();
  }

  get pending(): number {
    return this.tags.length - this.head;
  }

  write(request: Buffer, tag: number): void {
    if (this.failures > 10) {
      setImmediate(() => this.answered(tag, 0, EMPTY));
      return;
    }
    if (!this.corked) {
      this.socket.cork();
      this.corked = true;
    }
    this.tags.push(tag);
    this.socket.write(request);
  }

  uncork(): void {
    this.corked = false;
    this.socket.uncork();
  }

  close(): void {
    this.socket.removeAllListeners('close');
    this.socket.destroy();
  }

  private open(): void {
    const socket = connect({ port: this.port, host: '127.0.0.1', noDelay: true });
    this.socket = socket;
    this.corked = false;
    this.rest = null;
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => undefined); // 'close' follows
    socket.on('close', () => {
      const lost = this.tags.slice(this.head);
      this.tags = [];
      this.head = 0;
      this.failures += 1;
      if (this.failures <= 10) this.open();
      for (const tag of lost) this.answered(tag, 0, EMPTY);
    });
  }

  private onData(chunk: Buffer): void {
    const data = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    this.rest = null;
    let at = 0;
    while (at < data.length) {
      const headEnd = data.indexOf(HEAD_END, at);
      if (headEnd < 0) break;
      let field = data.indexOf(LENGTH_LOWER, at);
      if (field < 0 || field > headEnd) field = data.indexOf(LENGTH_TITLE, at);
      if (field < 0 || field > headEnd) {
        this.socket.destroy(); // no Content-Length: not an answer this client reads
        return;
      }
      let length = 0;
      for (let i = field + LENGTH_LOWER.length; i < headEnd; i++) {
        const c = data[i]!;
        if (c >= 48 && c <= 57) length = length * 10 + (c - 48);
        else if (c !== 32) break;
      }
      const end = headEnd + 4 + length;
      if (end > data.length) break;
      const status = (data[at + 9]! - 48) * 100 + (data[at + 10]! - 48) * 10 + (data[at + 11]! - 48);
      const tag = this.tags[this.head++]!;
      this.failures = 0;
      if (this.head > 1024 && this.head * 2 > this.tags.length) {
        this.tags = this.tags.slice(this.head);
        this.head = 0;
      }
      this.answered(tag, status, data.subarray(headEnd + 4, end));
      at = end;
    }
    if (at < data.length) this.rest = data.subarray(at);
  }
}

export class PipelinedClient {
  private readonly pipes: Pipe[] = [];
  private flushing = false;

  constructor(port: number, sockets: number, answered: Answered) {
    for (let i = 0; i < sockets; i++) this.pipes.push(new Pipe(port, answered));
  }

  /** Writes one pre-built request on the socket with the fewest answers outstanding. */
  send(request: Buffer, tag: number): void {
    let pipe = this.pipes[0]!;
    for (let i = 1; i < this.pipes.length && pipe.pending > 0; i++) {
      if (this.pipes[i]!.pending < pipe.pending) pipe = this.pipes[i]!;
    }
    pipe.write(request, tag);
    if (!this.flushing) {
      this.flushing = true;
      process.nextTick(() => this.flush());
    }
  }

  close(): void {
    for (const pipe of this.pipes) pipe.close();
  }

  private flush(): void {
    this.flushing = false;
    for (const pipe of this.pipes) if (pipe.corked) pipe.uncork();
  }
}
