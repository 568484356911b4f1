/**
 * Where the server's log lines go outside a terminal: standard output, written asynchronously in
 * batches (docs/operations.md#logs). A synchronous write per line cost ~20 µs of the event loop per
 * request — more than the rest of a cached read — so lines wait in memory and go out in writes of
 * 64 KB, and a timer writes whatever waits every 250 ms so a quiet site's lines still show at once.
 * Nothing is lost when the process stops: the graceful stop awaits `flushLog()`, and any other exit
 * writes the rest synchronously.
 *
 * Each line is encoded straight into a preallocated buffer (one copy, no string kept): pushing the
 * strings on an array and joining them per batch left every line alive until its batch went out,
 * for the garbage collector to copy, and cost a cached read ~1 µs more (docs/benchmarks.md,
 * `reads`). Not pino's own asynchronous destination (sonic-boom) either: it appends each line to
 * one growing string and measures that whole string's UTF-8 length on every write.
 */
import { write, writeSync } from 'node:fs';

const BATCH_BYTES = 64 * 1024;
const FLUSH_EVERY_MS = 250;
const EAGAIN_RETRY_MS = 10;

/** A pino destination: `write(line)` never blocks; `flush(cb)` calls back once every line is out. */
export class BatchedLogDestination {
  /** The buffer lines are encoded into, and how much of it is used. */
  private current: Buffer;
  private used = 0;
  /** Full batches waiting for the one in flight, oldest first (`ours`: cut from a buffer of ours). */
  private full: Batch[] = [];
  /** The batch being written (and how much of it is written), or null. */
  private inFlight: (Batch & { done: number }) | null = null;
  /** A written batch's buffer, kept to be filled again. */
  private spare: Buffer | null = null;
  private waiters: Array<() => void> = [];

  constructor(
    private readonly fd: number,
    private readonly batchBytes = BATCH_BYTES,
  ) {
    this.current = this.newBuffer();
  }

  write(line: string): boolean {
    // A UTF-8 character takes at most 3 bytes per UTF-16 unit.
    if (this.used + line.length * 3 > this.current.length) {
      this.seal();
      if (line.length * 3 > this.current.length) {
        // A line longer than a batch goes out on its own (its buffer is not reused).
        this.full.push({ buf: Buffer.from(line), ours: false });
        this.writeNext();
        return true;
      }
    }
    this.used += this.current.write(line, this.used);
    if (this.inFlight === null && this.used >= this.batchBytes >> 1) this.writeNext();
    return true;
  }

  /** Writes out everything waiting; `done` is called once it is written (or the write failed). */
  flush(done?: () => void): void {
    if (done) this.waiters.push(done);
    if (this.inFlight !== null) return; // the write in flight continues with the rest
    if (this.used > 0 || this.full.length > 0) this.writeNext(true);
    else this.settle();
  }

  /**
   * On exit (no event loop left): writes the unwritten rest of the batch in flight, the full
   * batches and what waits, synchronously. A batch the thread pool finished without its callback
   * having run is written twice then — a few duplicated lines rather than lost ones.
   */
  flushSync(): void {
    const rest = this.inFlight ? this.inFlight.buf.subarray(this.inFlight.done) : null;
    this.inFlight = null;
    const waiting = this.full.map((batch) => batch.buf);
    const chunks = [...(rest && rest.length > 0 ? [rest] : []), ...waiting, this.current.subarray(0, this.used)];
    this.full = [];
    this.used = 0;
    for (const chunk of chunks) {
      for (let off = 0; off < chunk.length;) {
        try {
          off += writeSync(this.fd, chunk, off, chunk.length - off);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
        }
      }
    }
  }

  /** Moves the used part of the current buffer to the full batches, and starts a fresh buffer. */
  private seal(): void {
    if (this.used === 0) return;
    this.full.push({ buf: this.current.subarray(0, this.used), ours: true });
    this.current = this.spare ?? this.newBuffer();
    this.spare = null;
    this.used = 0;
  }

  /**
   * Starts writing the oldest full batch — or, when none is full, the current buffer once it is
   * half full (`partial`: whatever it holds) — unless a write is in flight.
   */
  private writeNext(partial = false): void {
    if (this.inFlight !== null) return;
    if (this.full.length === 0 && (partial || this.used >= this.batchBytes >> 1)) this.seal();
    const batch = this.full.shift();
    if (batch === undefined) return this.settle();
    this.inFlight = { ...batch, done: 0 };
    this.send();
  }

  /** A batch-sized buffer of its own memory (never a slice of Node's shared pool), so it can be reused. */
  private newBuffer(): Buffer {
    return Buffer.allocUnsafeSlow(this.batchBytes);
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
      // A buffer of ours comes back, whole, as the spare.
      if (batch.ours && this.spare === null) this.spare = Buffer.from(batch.buf.buffer, 0, this.batchBytes);
      this.writeNext(this.waiters.length > 0);
    });
  }

  private settle(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const done of waiters) done();
  }
}

interface Batch {
  buf: Buffer;
  ours: boolean;
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
