/**
 * Where the server's log lines go outside a terminal: standard output, written asynchronously in
 * batches (docs/operations.md#logs). A synchronous write per line cost ~20 µs of the event loop per
 * request — more than the rest of a cached read — so lines wait in memory and go out in writes of
 * at least 8 KB, and a timer writes whatever waits every 250 ms so a quiet site's lines still show at
 * once. Nothing is lost when the process stops: the graceful stop awaits `flushLog()`, and any other
 * exit writes the rest synchronously.
 *
 * Not pino's own asynchronous destination (sonic-boom): it appends each line to one growing string
 * and measures that whole string's UTF-8 length on every write, which flattens and rescans up to
 * 16 KB per line — at 20,000 lines a second it cost more than the line itself, and the garbage with
 * it (docs/benchmarks.md, `reads`). Here a line is pushed on an array, and the batch is joined once.
 */
import { write, writeSync } from 'node:fs';

const MIN_BATCH = 8 * 1024;
const FLUSH_EVERY_MS = 250;
const EAGAIN_RETRY_MS = 10;

/** A pino destination: `write(line)` never blocks; `flush(cb)` calls back once every line is out. */
export class BatchedLogDestination {
  private pending: string[] = [];
  private pendingChars = 0;
  /** The batch being written (and how much of it is written), or null. */
  private inFlight: { buf: Buffer; done: number } | null = null;
  private waiters: Array<() => void> = [];

  constructor(private readonly fd: number) {}

  write(line: string): boolean {
    this.pending.push(line);
    this.pendingChars += line.length;
    if (this.inFlight === null && this.pendingChars >= MIN_BATCH) this.writeOut();
    return true;
  }

  /** Writes out everything waiting; `done` is called once it is written (or the write failed). */
  flush(done?: () => void): void {
    if (done) this.waiters.push(done);
    if (this.inFlight !== null) return; // the write in flight continues with the rest
    if (this.pending.length > 0) this.writeOut();
    else this.settle();
  }

  /**
   * On exit (no event loop left): writes what waits, and the unwritten rest of the batch in flight,
   * synchronously. A batch the thread pool finished without its callback having run is written
   * twice then — a few duplicated lines rather than lost ones.
   */
  flushSync(): void {
    const rest = this.inFlight ? this.inFlight.buf.subarray(this.inFlight.done) : null;
    this.inFlight = null;
    const chunks = [...(rest && rest.length > 0 ? [rest] : []), Buffer.from(this.pending.join(''))];
    this.pending = [];
    this.pendingChars = 0;
    for (const chunk of chunks) {
      for (let off = 0; off < chunk.length; ) {
        try {
          off += writeSync(this.fd, chunk, off, chunk.length - off);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
        }
      }
    }
  }

  private writeOut(): void {
    const buf = Buffer.from(this.pending.join(''));
    this.pending = [];
    this.pendingChars = 0;
    this.inFlight = { buf, done: 0 };
    this.send();
  }

  private send(): void {
    const batch = this.inFlight;
    if (batch === null) return; // written by flushSync meanwhile
    write(this.fd, batch.buf, batch.done, batch.buf.length - batch.done, null, (err, written) => {
      if (this.inFlight !== batch) return;
      if (err) {
        // A non-blocking pipe that is full: try again shortly. Anything else (the reader is gone):
        // the batch cannot be written, and the next one is tried.
        if (err.code === 'EAGAIN') return void setTimeout(() => this.send(), EAGAIN_RETRY_MS);
        written = batch.buf.length - batch.done;
      }
      batch.done += written;
      if (batch.done < batch.buf.length) return this.send();
      this.inFlight = null;
      if (this.pending.length > 0 && (this.pendingChars >= MIN_BATCH || this.waiters.length > 0)) this.writeOut();
      else this.settle();
    });
  }

  private settle(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const done of waiters) done();
  }
}

let destination: BatchedLogDestination | null = null;

/** The one asynchronous destination of this process, on standard output (made on first use). */
export function asyncLogDestination(): BatchedLogDestination {
  if (destination) return destination;
  const dest = new BatchedLogDestination(1);
  destination = dest;
  setInterval(() => dest.flush(), FLUSH_EVERY_MS).unref();
  process.on('exit', () => dest.flushSync());
  return dest;
}

/** Writes out every buffered line (the graceful stop waits for it before exiting). */
export function flushLog(): Promise<void> {
  const dest = destination;
  if (!dest) return Promise.resolve();
  return new Promise((resolve) => dest.flush(resolve));
}
