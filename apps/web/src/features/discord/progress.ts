import {
  recipientReasonText,
  type BroadcastRecipient,
  type BroadcastSummary,
  type RecipientReason,
} from '@kickback/common/http/discord';

/** Done recipients (sent, failed or skipped) as a whole percentage of all of them. */
export function percentDone(b: Pick<BroadcastSummary, 'total' | 'sentCount' | 'failedCount'>): number {
  if (b.total <= 0) return 100;
  return Math.min(100, Math.floor(((b.sentCount + b.failedCount) * 100) / b.total));
}

/**
 * "3 could not be reached: 2 DMs closed or no shared server, 1 No Discord account linked" — the
 * count of failed recipients and why, most frequent reason first; null when everyone was reached.
 */
export function unreachedSummary(failed: readonly Pick<BroadcastRecipient, 'reason'>[]): string | null {
  if (failed.length === 0) return null;
  const counts = new Map<RecipientReason, number>();
  for (const r of failed) {
    const reason = r.reason ?? 'error';
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  const why = [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => `${n} ${recipientReasonText[reason]}`)
    .join(', ');
  return `${failed.length} could not be reached: ${why}`;
}
