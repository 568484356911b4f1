/**
 * The suite's servers (playwright.config.ts's webServer): one per worker, each on an in-memory
 * database with the demo data, so two journeys running at once never share a site
 * (docs/conventions.md#test-speed).
 */
import { createHash } from 'node:crypto';

/**
 * Journeys run two at a time: a third worker left the run bound by the CPU, the server tests beside
 * it starved, and the whole run longer (docs/conventions.md#test-speed; E2E_WORKERS=1 for one).
 */
export const WORKERS = Number(process.env.E2E_WORKERS ?? 2);

// Derived from the checkout's path, so two checkouts can run their suites at once.
const derivedPort =
  31_000 +
  4 *
    (createHash('sha1')
      .update(import.meta.dirname)
      .digest()
      .readUInt16BE(0) %
      450);
/** The first server's port; worker n's server listens on PORT + n (room for four per checkout). */
export const PORT = Number(process.env.E2E_PORT ?? derivedPort);

/** The suite's server of the worker with this parallel index. */
export const serverUrl = (parallelIndex: number) => `http://localhost:${PORT + parallelIndex}`;

/**
 * Timers of the suite's server (playwright.config.ts's webServer) set shorter than the production
 * defaults where a journey would otherwise sit and wait on them. Only timers no journey checks the
 * length of; the defaults themselves are asserted by apps/server/src/config.test.ts
 * (docs/conventions.md#test-speed).
 */

/** Buffered chat points are written every half second instead of every 5 s. */
export const CHAT_POINTS_FLUSH_MS = 500;

/** The chat timers run a round every half second instead of every 15 s. */
export const CHAT_TIMERS_TICK_MS = 500;

export const SUITE_SERVER_TIMERS: Record<string, string> = {
  CHAT_POINTS_FLUSH_MS: String(CHAT_POINTS_FLUSH_MS),
  CHAT_TIMERS_TICK_MS: String(CHAT_TIMERS_TICK_MS),
};
