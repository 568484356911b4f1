/** The store's public API (spec part 1 §7): the active catalogue and placing an order. */
import type { FastifyInstance } from 'fastify';
import { asc, desc, eq } from 'drizzle-orm';
import { storeEndpoints } from '@kickback/common/http/store';
import { products } from '../../db/schema/store';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { placeOrder } from './order-placer';
import { toProduct } from './presenter';

export async function storeRoutes(app: FastifyInstance): Promise<void> {
  route(app, storeEndpoints.products, async () => {
    const rows = await app.db
      .select()
      .from(products)
      .where(eq(products.active, true))
      .orderBy(desc(products.price), asc(products.id));
    const categories = [...new Set(rows.map((p) => p.category))].sort((a, b) => a.localeCompare(b));
    return { data: rows.map(toProduct), categories };
  });

  route(
    app,
    storeEndpoints.order,
    // Uses only the buyer's id; the statement checks the balance itself (plugins/session.ts).
    { config: { identityOnly: true } },
    async (request) => {
      const user = currentUser(request);
      const { message } = await placeOrder(app.database, user.id, request.body.productId);
      return { message };
    },
  );
}
