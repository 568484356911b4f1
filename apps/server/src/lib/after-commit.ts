/**
 * Side effects that may only happen once a transaction committed
 * (docs/conventions.md#rule-5-emit-after-commit): broadcasts and in-process timer wake-ups are
 * queued while the transaction runs and run after it resolved. If it throws, the queue is dropped,
 * so nothing that was rolled back is ever announced.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../db/client';

export class AfterCommit {
  private readonly effects: Array<() => void | Promise<void>> = [];

  push(effect: () => void | Promise<void>): void {
    this.effects.push(effect);
  }

  /** Runs the queued effects in order; one failing does not stop the others. */
  async run(log?: FastifyBaseLogger): Promise<void> {
    const effects = this.effects.splice(0);
    for (const effect of effects) {
      try {
        await effect();
      } catch (err) {
        log?.error({ err }, 'after-commit effect failed');
      }
    }
  }
}

/** Runs `fn` in a transaction, then (only if it committed) the effects it queued. */
export async function transactionThen<T>(
  db: Db,
  fn: (tx: Tx, after: AfterCommit) => Promise<T>,
  log?: FastifyBaseLogger,
): Promise<T> {
  const after = new AfterCommit();
  const result = await db.transaction((tx) => fn(tx as Tx, after));
  await after.run(log);
  return result;
}
