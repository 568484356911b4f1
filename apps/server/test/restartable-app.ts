/**
 * A restart without spawning: the app built in this test process (buildTestApp) on a real port and
 * a test database of its own, which the test stops and starts again on the same database, clock and
 * port — the clients reconnect by themselves. Processes of their own (a kill -9, two processes on
 * PostgreSQL and Redis) are ./processes.ts's (docs/conventions.md#multi-process-tests).
 */
import { afterAll } from 'vitest';
import { buildTestApp, type TestApp } from './app';
import { openTestDatabase } from './database';
import { listen, WallClock } from './hub-client';

/**
 * Call in a test file (or describe block): everything it starts, and what `closeAfter` is given
 * (hub clients), is closed after the block's tests, and the database dropped.
 */
export function restartableApp() {
  const apps: TestApp[] = [];
  const closers: Array<{ close(): void }> = [];
  let database: Awaited<ReturnType<typeof openTestDatabase>> | null = null;
  let running: TestApp | null = null;
  let port = 0;
  const clock = new WallClock();
  afterAll(async () => {
    for (const c of closers) c.close();
    for (const a of apps) await a.close().catch(() => undefined);
    await database?.drop();
  });
  return {
    /** Real time, shared by every start (timers really fire). */
    clock,
    /** The base URL: the same port on every start. */
    get url(): string {
      if (!port) throw new Error('not started yet');
      return `http://127.0.0.1:${port}`;
    },
    /** Builds the app (the first time on a fresh database) and listens: the first time on a free port, then on the same one. */
    async start(): Promise<TestApp> {
      if (running) throw new Error('already running: stop() first');
      database ??= await openTestDatabase();
      const app = await buildTestApp({ database, clock });
      apps.push(app);
      port = Number(new URL(await listen(app.app, port)).port);
      running = app;
      return app;
    },
    /** Stops the running app: every socket is dropped; the database stays. */
    async stop(): Promise<void> {
      if (!running) throw new Error('not running');
      await running.app.close();
      running = null;
    },
    /** Closes `c` after the tests (a hub client, say); returns it. */
    closeAfter<T extends { close(): void }>(c: T): T {
      closers.push(c);
      return c;
    },
  };
}
