/**
 * Admin: the fulfilment queue (`/api/admin/fulfilment`): every kind of thing a person must deliver,
 * filterable by status and kind, newest first, with the recipient's linked accounts so the admin
 * knows where to deliver; and the deliver / reject actions.
 */
import type { FastifyInstance } from 'fastify';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { fulfilmentEndpoints, type FulfilmentItem } from '@kickback/common/http/fulfilment';
import { decimalToNumber } from '@kickback/common/money';
import { readPage } from '../../db/page';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { users, type UserRow } from '../../db/schema/users';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { actorOf } from '../audit/service';
import { deliverItem, rejectItem } from './handling';

const PAGE_SIZE = 25;

type QueueRow = {
  item: typeof fulfilmentItems.$inferSelect;
  user: UserRow;
  handledByName: string | null;
  deliveryKind: string | null;
  deliveryDetail: string | null;
};

const deliveryKinds = new Set(['none', 'steam_trade_url', 'email', 'code'] as const);
type DeliveryKind = 'none' | 'steam_trade_url' | 'email' | 'code';
const isDeliveryKind = (k: string | null): k is DeliveryKind => k !== null && deliveryKinds.has(k as DeliveryKind);

export async function fulfilmentRoutes(app: FastifyInstance): Promise<void> {
  route(app, fulfilmentEndpoints.queue, async (request) => {
    const { status, kind, page } = request.query;
    const filters: SQL[] = [];
    if (status) filters.push(eq(fulfilmentItems.status, status));
    if (kind) filters.push(eq(fulfilmentItems.kind, kind));
    const where = filters.length ? and(...filters) : undefined;
    const handledByName = sql<string | null>`(SELECT username FROM users h WHERE h.id = ${fulfilmentItems.handledBy})`;
    // Store orders: the product's delivery kind and the detail the buyer gave with the order.
    const orderOf = sql`(${fulfilmentItems.kind} = 'order' AND o.id::text = ${fulfilmentItems.reference})`;
    const deliveryKind = sql<
      string | null
    >`(SELECT p.delivery FROM orders o JOIN products p ON p.id = o.product_id WHERE ${orderOf})`;
    const deliveryDetail = sql<string | null>`(SELECT o.delivery_detail FROM orders o WHERE ${orderOf})`;
    const toItem = ({
      item,
      user,
      handledByName: by,
      deliveryKind: dk,
      deliveryDetail: dd,
    }: QueueRow): FulfilmentItem => ({
      id: item.id,
      kind: item.kind,
      reference: item.reference,
      description: item.description,
      amount: item.amount === null ? null : decimalToNumber(item.amount),
      unit: item.unit,
      status: item.status,
      credit:
        item.creditCurrency && item.creditAmount
          ? { currency: item.creditCurrency, amount: decimalToNumber(item.creditAmount) }
          : null,
      refund:
        item.refundCurrency && item.refundAmount
          ? { currency: item.refundCurrency, amount: decimalToNumber(item.refundAmount) }
          : null,
      note: item.note,
      handledBy: by,
      handledAt: item.handledAt?.toISOString() ?? null,
      createdAt: item.createdAt.toISOString(),
      user: {
        id: user.id,
        username: user.username,
        steamId: user.steamId,
        avatarUrl: user.avatarUrl,
        kickUsername: user.kickUsername,
        discordUsername: user.discordUsername,
        clashId: user.clashId,
        rustMagicId: user.rustMagicId,
        roobetName: user.roobetName,
        casesId: user.casesId,
        excluded: user.excluded,
      },
      delivery: isDeliveryKind(dk) ? { kind: dk, detail: dk === 'code' ? null : dd } : null,
    });
    const [items, kinds, pending] = await Promise.all([
      readPage(app.db, {
        rows: app.db
          .select({ item: fulfilmentItems, user: users, handledByName, deliveryKind, deliveryDetail })
          .from(fulfilmentItems)
          .innerJoin(users, eq(users.id, fulfilmentItems.userId))
          .where(where)
          .orderBy(desc(fulfilmentItems.id))
          .$dynamic(),
        count: { from: fulfilmentItems, where },
        page,
        pageSize: PAGE_SIZE,
        map: toItem,
      }),
      app.db.selectDistinct({ kind: fulfilmentItems.kind }).from(fulfilmentItems).orderBy(fulfilmentItems.kind),
      app.db.select({ n: count() }).from(fulfilmentItems).where(eq(fulfilmentItems.status, 'pending')),
    ]);
    return { ...items, kinds: kinds.map((k) => k.kind), pendingCount: pending[0]?.n ?? 0 };
  });

  route(app, fulfilmentEndpoints.deliver, async (request) => {
    const user = currentUser(request);
    const actor = { ...actorOf(user), isAdmin: user.role === 'Admin' };
    return deliverItem(app.db, actor, request.params.id, request.body.note, app.clock.now());
  });

  route(app, fulfilmentEndpoints.reject, async (request) =>
    rejectItem(app.db, actorOf(currentUser(request)), request.params.id, request.body.note, app.clock.now()),
  );
}
