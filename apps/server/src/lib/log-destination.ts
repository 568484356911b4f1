/**
 * Where the server's log lines go outside a terminal: standard output through an asynchronous,
 * buffered pino destination (docs/operations.md#logs). A synchronous write per line cost ~20 µs of
 * the event loop per request — more than the rest of a cached read — so lines are gathered into
 * 8 KB writes, and a timer writes out whatever waits every 250 ms so a quiet site's lines still
 * show at once. Nothing is lost when the process stops: the graceful stop awaits `flushLog()`, and
 * pino writes the rest synchronously on any other exit (it registers that for every asynchronous
 * destination it makes).
 */
import pino from 'pino';

type Destination = ReturnType<typeof pino.destination>;

const FLUSH_EVERY_MS = 250;
let destination: Destination | null = null;

/** The one asynchronous destination of this process (made on first use). */
export function asyncLogDestination(): Destination {
  if (destination) return destination;
  const dest = pino.destination({ dest: 1, sync: false, minLength: 8 * 1024 });
  destination = dest;
  const timer = setInterval(() => dest.flush(), FLUSH_EVERY_MS);
  timer.unref();
  dest.once('close', () => {
    clearInterval(timer);
    destination = null;
  });
  return dest;
}

/** Writes out every buffered line (the graceful stop waits for it before exiting). */
export function flushLog(): Promise<void> {
  const dest = destination;
  if (!dest) return Promise.resolve();
  return new Promise((resolve) => dest.flush(() => resolve()));
}
