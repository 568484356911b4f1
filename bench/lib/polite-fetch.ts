/**
 * A benchmark's own set-up requests (sign-ins, the admin's grants) run at the server's real request
 * budgets when the visitors have addresses of their own (bench/stream-night.ts): this makes the
 * process's `fetch` wait out a 429 for its `Retry-After` and ask again, as a polite client would,
 * instead of the set-up failing. Only the set-up's `fetch` calls go through it; the measured load
 * (the visitors, the chat) has clients of its own.
 */
const MAX_WAITS = 5;

export function waitOutRateLimits(): void {
  const plain = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    for (let waits = 0; ; waits++) {
      const res = await plain(input, init);
      if (res.status !== 429 || waits === MAX_WAITS) return res;
      const seconds = Number(res.headers.get('retry-after') ?? '1');
      await res.body?.cancel();
      await new Promise((r) => setTimeout(r, (Number.isFinite(seconds) ? Math.max(seconds, 1) : 1) * 1000));
    }
  };
}
