/**
 * Timers of the suite's server (playwright.config.ts's webServer) set shorter than the production
 * defaults where a journey would otherwise sit and wait on them. Only timers no journey checks the
 * length of; the defaults themselves are asserted by apps/server/src/config.test.ts
 * (docs/conventions.md#test-speed).
 */

/** Buffered chat points are written every half second instead of every 5 s. */
export const CHAT_POINTS_FLUSH_MS = 500;

export const SUITE_SERVER_TIMERS: Record<string, string> = {
  CHAT_POINTS_FLUSH_MS: String(CHAT_POINTS_FLUSH_MS),
};
