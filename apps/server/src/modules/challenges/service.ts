/**
 * Challenges: the public list (the configured category only, Active and Completed), the admin list,
 * create and update. Completing a challenge with a winner queues the prize for delivery (kind
 * 'challenge', reference 'challenge:<id>', in USD) in the same transaction, once.
 */
import type { FastifyInstance } from 'fastify';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { centsToText, decimalToNumber, toCents } from '@kickback/common/money';
import {
  challengeStatusLabel,
  challengeStatuses,
  type Challenge,
  type createChallengeBody,
  type updateChallengeBody,
} from '@kickback/common/http/challenges';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client';
import { challenges, type ChallengeRow } from '../../db/schema/challenges';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { users } from '../../db/schema/users';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { recordAudit, type Actor } from '../audit/service';
import { enqueueFulfilment } from '../fulfilment/service';
import { challengeCategoryNow } from '../site/service';

type CreateInput = z.output<typeof createChallengeBody>;
type UpdateInput = z.output<typeof updateChallengeBody>;

/** The read-cache key of the public list; invalidated after every committed change. */
export const CHALLENGES_READ = 'challenges';

export const challengeReference = (id: number) => `challenge:${id}`;

/** A title without the `{…}` highlight marks, for places that show plain text. */
export const plainTitle = (title: string) => title.replace(/[{}]/g, '');

type Joined = ChallengeRow & { winnerUserName: string | null };

function present(row: Joined): Challenge {
  return {
    id: row.id,
    title: row.title,
    price: decimalToNumber(row.price),
    description: row.description,
    category: row.category,
    imageUrl: row.imageUrl,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
    winnerUserId: row.winnerUserId,
    winnerUserName: row.winnerUserName,
  };
}

/** What the audit log keeps of a challenge. */
function auditView(row: ChallengeRow) {
  return {
    title: row.title,
    price: row.price,
    description: row.description,
    category: row.category,
    imageUrl: row.imageUrl,
    status: challengeStatusLabel(row.status),
    winnerUserId: row.winnerUserId,
  };
}

export class ChallengeService {
  constructor(private readonly app: FastifyInstance) {}

  private select(db: DbOrTx) {
    return db
      .select({ challenge: challenges, winnerUserName: users.username })
      .from(challenges)
      .leftJoin(users, eq(users.id, challenges.winnerUserId));
  }

  private async one(db: DbOrTx, id: number): Promise<Challenge> {
    const [row] = await this.select(db).where(eq(challenges.id, id));
    if (!row) throw notFound('Challenge not found.');
    return present({ ...row.challenge, winnerUserName: row.winnerUserName });
  }

  /** Public: Active and Completed challenges of the configured category (Cancelled never). */
  async publicList(): Promise<{ challenges: Challenge[]; categories: string[] }> {
    const category = await challengeCategoryNow(this.app);
    const rows = await this.select(this.app.db)
      .where(
        and(
          eq(challenges.category, category),
          inArray(challenges.status, [challengeStatuses.active, challengeStatuses.completed]),
        ),
      )
      .orderBy(desc(challenges.createdAt), desc(challenges.id));
    return {
      challenges: rows.map((r) => present({ ...r.challenge, winnerUserName: r.winnerUserName })),
      categories: [category],
    };
  }

  async all(): Promise<Challenge[]> {
    const rows = await this.select(this.app.db).orderBy(desc(challenges.createdAt), desc(challenges.id));
    return rows.map((r) => present({ ...r.challenge, winnerUserName: r.winnerUserName }));
  }

  async create(actor: Actor, input: CreateInput): Promise<Challenge> {
    const now = this.app.clock.now();
    const defaultCategory = input.category ? '' : await challengeCategoryNow(this.app);
    const created = await this.app.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(challenges)
        .values({
          title: input.title,
          price: centsToText(toCents(input.price)),
          description: input.description,
          category: input.category || defaultCategory,
          imageUrl: input.imageUrl,
          status: challengeStatuses.active,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (!row) throw new Error('challenge insert returned nothing');
      await recordAudit(tx, actor, {
        action: 'challenge.create',
        targetType: 'challenge',
        targetId: String(row.id),
        after: auditView(row),
      });
      return this.one(tx, row.id);
    });
    this.app.reads.invalidate(CHALLENGES_READ);
    return created;
  }

  async update(actor: Actor, input: UpdateInput): Promise<Challenge> {
    const now = this.app.clock.now();
    const updated = await this.app.db.transaction(async (tx) => {
      const [before] = await tx.select().from(challenges).where(eq(challenges.id, input.id)).for('update');
      if (!before) throw notFound('Challenge not found.');
      const winnerUserId = input.winnerUserId ?? before.winnerUserId;
      if (input.winnerUserId) {
        const [winner] = await tx.select({ id: users.id }).from(users).where(eq(users.id, input.winnerUserId));
        if (!winner) throw badRequest('Invalid winnerUserId: no such user');
      }
      const [queued] = await tx
        .select({ userId: fulfilmentItems.userId })
        .from(fulfilmentItems)
        .where(
          and(eq(fulfilmentItems.kind, 'challenge'), eq(fulfilmentItems.reference, challengeReference(before.id))),
        );
      if (queued && winnerUserId !== queued.userId) {
        throw conflict(
          'The prize of this challenge is already in the fulfilment queue for its winner; the winner cannot change.',
        );
      }
      const ended = input.status === challengeStatuses.active ? null : (before.endedAt ?? now);
      const [after] = await tx
        .update(challenges)
        .set({
          title: input.title,
          price: centsToText(toCents(input.price)),
          description: input.description,
          category: input.category || before.category,
          imageUrl: input.imageUrl,
          status: input.status,
          endedAt: ended,
          winnerUserId,
          updatedAt: now,
        })
        .where(eq(challenges.id, input.id))
        .returning();
      if (!after) throw notFound('Challenge not found.');
      let prizeQueued: number | null = null;
      if (after.status === challengeStatuses.completed && after.winnerUserId && toCents(after.price) > 0n) {
        prizeQueued = await enqueueFulfilment(tx, {
          kind: 'challenge',
          reference: challengeReference(after.id),
          userId: after.winnerUserId,
          description: `Challenge prize: ${plainTitle(after.title)}`,
          amount: after.price,
          unit: 'USD',
        });
      }
      await recordAudit(tx, actor, {
        action: 'challenge.update',
        targetType: 'challenge',
        targetId: String(after.id),
        before: auditView(before),
        after: { ...auditView(after), ...(prizeQueued !== null ? { fulfilmentId: prizeQueued } : {}) },
      });
      return this.one(tx, after.id);
    });
    this.app.reads.invalidate(CHALLENGES_READ);
    return updated;
  }
}
