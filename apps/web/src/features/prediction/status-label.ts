/** The overlay's status label of each state, exactly as docs/product.md#live-states-and-transitions gives it. */
import type { PredictionState } from '@kickback/common/hubs/prediction';
import { t as currentT } from '../../i18n/i18n';

export function statusLabel(
  state: Pick<PredictionState, 'state' | 'resultAnswerId'>,
  t: typeof currentT = currentT,
): string {
  switch (state.state) {
    case 1:
      return t('prediction.active');
    case 2:
      return t('prediction.answerIs', { answer: state.resultAnswerId ?? '' });
    case 3:
      return t('prediction.closed');
    case 4:
      return t('prediction.cancelled');
    default:
      return '';
  }
}

/** Each answer's share of the participants, in whole percent (0 when nobody bet). */
export function percentOf(count: number, total: number): number {
  return total === 0 ? 0 : Math.round((count / total) * 100);
}

/** Time since start as m:ss (or h:mm:ss), on the server's clock. */
export function elapsed(startTime: string | null, nowMs: number): string {
  if (!startTime) return '0:00';
  const total = Math.max(0, Math.floor((nowMs - new Date(startTime).getTime()) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
