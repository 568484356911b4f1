/**
 * Coalesces the overlay updates bets cause: a bet only marks the state changed, and at most one
 * `ReceiveState` per interval goes out per process, carrying the state as it is then (however many
 * bets arrived meanwhile). Transitions (lock, resolve, …) are emitted by the runner at once.
 */
import type { FastifyBaseLogger } from 'fastify';
import { predictionHub, type PredictionState } from '@kickback/common/hubs/prediction';
import type { Realtime } from '../../plugins/realtime';
import { PREDICTION_ROOM } from './game';

export class PredictionBroadcaster {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly realtime: Realtime,
    private readonly current: () => Promise<PredictionState>,
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs: number,
  ) {}

  /** A bet committed: send the state within the interval (one send for any number of bets). */
  changed(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.current()
        .then((state) => this.realtime.emit(predictionHub, PREDICTION_ROOM, 'ReceiveState', state))
        .catch((err: unknown) => this.log.error({ err }, 'prediction state broadcast failed'));
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
