import type { BroadcastSummary } from '@kickback/common/http/discord';

/** Done recipients (sent, failed or skipped) as a whole percentage of all of them. */
export function percentDone(b: Pick<BroadcastSummary, 'total' | 'sentCount' | 'failedCount'>): number {
  if (b.total <= 0) return 100;
  return Math.min(100, Math.floor(((b.sentCount + b.failedCount) * 100) / b.total));
}
