/**
 * "My activity" (docs/features/points-and-store.md#the-ledger): the signed-in user's own ledger,
 * newest first, and their store orders with the status of each order's fulfilment item (pending,
 * delivered, rejected, and the note), and their other payouts in the fulfilment queue (daily
 * rewards, challenge, leaderboard and game prizes).
 */
import type { FastifyInstance } from 'fastify';
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import { activityEndpoints } from '@kickback/common/http/activity';
import { decimalToNumber } from '@kickback/common/money';
import { readPage } from '../../db/page';
import { fulfilmentItems } from '../../db/schema/fulfilment';
import { ledger } from '../../db/schema/ledger';
import { orders } from '../../db/schema/store';
import { codesOfOrders } from '../store/service';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';

const PAGE_SIZE = 20;

export async function activityRoutes(app: FastifyInstance): Promise<void> {
  route(app, activityEndpoints.ledger, async (request) => {
    const user = currentUser(request);
    const { page } = request.query;
    const mine = eq(ledger.userId, user.id);
    return readPage(app.db, {
      rows: app.db.select().from(ledger).where(mine).orderBy(desc(ledger.id)).$dynamic(),
      count: { from: ledger, where: mine },
      page,
      pageSize: PAGE_SIZE,
      map: (e) => ({
        id: e.id,
        currency: e.currency,
        delta: decimalToNumber(e.delta),
        balanceAfter: decimalToNumber(e.balanceAfter),
        reason: e.reason,
        memo: e.memo,
        createdAt: e.createdAt.toISOString(),
      }),
    });
  });

  route(app, activityEndpoints.orders, async (request) => {
    const user = currentUser(request);
    const { page } = request.query;
    const mine = eq(orders.userId, user.id);
    const result = await readPage(app.db, {
      rows: app.db
        .select({
          order: orders,
          status: fulfilmentItems.status,
          note: fulfilmentItems.note,
          handledAt: fulfilmentItems.handledAt,
        })
        .from(orders)
        .leftJoin(
          fulfilmentItems,
          and(eq(fulfilmentItems.kind, 'order'), eq(fulfilmentItems.reference, sql`${orders.id}::text`)),
        )
        .where(mine)
        .orderBy(desc(orders.id))
        .$dynamic(),
      count: { from: orders, where: mine },
      page,
      pageSize: PAGE_SIZE,
      map: ({ order, status, note, handledAt }) => ({
        id: order.id,
        productName: order.productName,
        price: decimalToNumber(order.price),
        status: status ?? 'pending',
        note,
        createdAt: order.createdAt.toISOString(),
        handledAt: handledAt?.toISOString() ?? null,
        deliveryDetail: order.deliveryDetail,
        code: null as string | null,
      }),
    });
    // Instant-code orders show their code to the buyer, and only to them.
    const codes = await codesOfOrders(
      app.db,
      app.config.codeKey,
      user.id,
      result.items.map((o) => o.id),
    );
    return { ...result, items: result.items.map((o) => ({ ...o, code: codes.get(o.id) ?? null })) };
  });

  route(app, activityEndpoints.payouts, async (request) => {
    const user = currentUser(request);
    const { page } = request.query;
    // Store orders have their own list; everything else the team delivers is a payout.
    const mine = and(eq(fulfilmentItems.userId, user.id), ne(fulfilmentItems.kind, 'order'));
    return readPage(app.db, {
      rows: app.db.select().from(fulfilmentItems).where(mine).orderBy(desc(fulfilmentItems.id)).$dynamic(),
      count: { from: fulfilmentItems, where: mine },
      page,
      pageSize: PAGE_SIZE,
      map: (item) => ({
        id: item.id,
        kind: item.kind,
        description: item.description,
        amount: item.amount === null ? null : decimalToNumber(item.amount),
        unit: item.unit,
        status: item.status,
        note: item.note,
        createdAt: item.createdAt.toISOString(),
        handledAt: item.handledAt?.toISOString() ?? null,
      }),
    });
  });
}
