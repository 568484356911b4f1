/**
 * Announcing paid support rewards, after their commit: in chat (one `thanks` per reward through the
 * outgoing chat queue, which folds those waiting into "Thank you: @a gifted 2 subs (+1,000 points) ·
 * @b …" up to Kick's 500 characters and never drops them by age; see
 * docs/features/kick-chat-queue.md) and on the alerts overlay (`/SupportAlerts`, one alert each).
 *
 * Paid rewards are written `announced = false` in the transaction that pays them; a flush claims
 * them (`FOR UPDATE SKIP LOCKED`, so each is announced by one process once), queues their chat
 * lines and then emits their alerts. If queueing fails the claim is given back, so the next flush
 * announces them. A flush runs shortly after each handled event commits and every few seconds, so a
 * reward whose process stopped before announcing is announced by the next flush.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { decimalToNumber } from '@kickback/common/money';
import { shownName } from '@kickback/common/shown-name';
import { supportAlertsHub, type SupportAlert } from '@kickback/common/hubs/support-alerts';
import { rowsOf } from '../../db/rows';
import type { ChatOut } from '../chat-out/service';
import type { SupportRewardKind } from '../../db/schema/support-rewards';

export const ALERTS_ROOM = 'support-alerts';
/** The topic the queue folds support thanks under. */
export const THANKS_TOPIC = 'Thank you';
const RECENT = 10;

const alertText: Record<SupportRewardKind, (n: number) => string> = {
  sub: () => 'subscribed',
  gift: (n) => `gifted ${n} sub${n === 1 ? '' : 's'}`,
  kicks: (n) => `sent ${n} KICK${n === 1 ? '' : 's'}`,
  follow: () => 'followed',
};

interface Claimed {
  id: number;
  kind: SupportRewardKind;
  kick_username: string | null;
  units: number;
  amount: string;
  paid_at: Date | string;
}

const toAlert = (r: Claimed): SupportAlert => ({
  id: Number(r.id),
  kind: r.kind,
  kickUsername: shownName(r.kick_username ?? 'Someone'),
  text: alertText[r.kind](r.units),
  points: decimalToNumber(r.amount),
  at: new Date(r.paid_at).toISOString(),
});

/** A reward's chat thanks, folded by the queue with the others waiting under the same topic. */
export const thanksFor = (a: SupportAlert): ChatOut => ({
  kind: 'thanks',
  topic: THANKS_TOPIC,
  addressee: a.kickUsername,
  item: `${a.text} (+${a.points.toLocaleString('en-US')} points)`,
});

export class SupportAnnouncer {
  private running: Promise<number> = Promise.resolve(0);
  private scheduled: NodeJS.Timeout | null = null;

  constructor(
    private readonly app: FastifyInstance,
    private readonly enqueue: (...messages: ChatOut[]) => Promise<void>,
    private readonly delayMs = 300,
  ) {}

  /** Soon (several rewards committed close together share one chat line). */
  schedule(): void {
    if (this.scheduled) return;
    this.scheduled = setTimeout(() => {
      this.scheduled = null;
      void this.flush().catch((err: unknown) => this.app.log.warn({ err }, 'support announcements failed'));
    }, this.delayMs);
    this.scheduled.unref();
  }

  stop(): void {
    if (this.scheduled) clearTimeout(this.scheduled);
    this.scheduled = null;
  }

  /** Announces every paid reward not yet announced; resolves to how many. One flush at a time. */
  flush(): Promise<number> {
    const next = this.running.then(
      () => this.announce(),
      () => this.announce(),
    );
    this.running = next.catch(() => 0);
    return next;
  }

  /** The latest announced alerts, oldest first (what an overlay opened now shows). */
  async recent(): Promise<SupportAlert[]> {
    const rows = rowsOf<Claimed>(
      await this.app.db.execute(sql`
        SELECT id, kind, kick_username, units, amount::text AS amount, paid_at FROM support_rewards
        WHERE status = 'paid' AND announced ORDER BY id DESC LIMIT ${RECENT}
      `),
    );
    return rows.reverse().map(toAlert);
  }

  private async announce(): Promise<number> {
    const claimed = rowsOf<Claimed>(
      await this.app.db.execute(sql`
        UPDATE support_rewards SET announced = true
        WHERE id IN (
          SELECT id FROM support_rewards WHERE NOT announced ORDER BY id LIMIT 100 FOR UPDATE SKIP LOCKED
        )
        RETURNING id, kind, kick_username, units, amount::text AS amount, paid_at
      `),
    );
    if (claimed.length === 0) return 0;
    const ordered = claimed.sort((a, b) => Number(a.id) - Number(b.id));
    const alerts = ordered.map(toAlert);
    try {
      // Chat thanks name a Kick account: a grant to a site user with no Kick link gets its alert only.
      await this.enqueue(...ordered.filter((r) => r.kick_username !== null).map((r) => thanksFor(toAlert(r))));
    } catch (err) {
      // Given back: the next flush (at most a few seconds away) claims and queues them again.
      await this.app.db.execute(sql`
        UPDATE support_rewards SET announced = false WHERE id IN (${sql.join(
          alerts.map((a) => sql`${a.id}`),
          sql`, `,
        )})
      `);
      throw err;
    }
    for (const alert of alerts) this.app.realtime.emit(supportAlertsHub, ALERTS_ROOM, 'ReceiveAlert', alert);
    return alerts.length;
  }
}
