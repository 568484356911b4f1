/** The store's public API (spec part 1 §7): the active catalogue and placing an order. */
import type { FastifyInstance } from 'fastify';
import { messageBody } from '@kickback/common/http/errors';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { orderProductBody, productsResponse } from '@kickback/common/http/store';
import { currentUser } from '../../plugins/access';
import { cachedRead, cachedReadConfig } from '../../plugins/cached-reads';
import { placeOrder } from './order-placer';
import { activeCatalogue, PRODUCTS_READ } from './presenter';

export async function storeRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/Product/GetProducts',
    { config: cachedReadConfig, schema: { response: { 200: productsResponse } } },
    cachedRead(app, {
      key: PRODUCTS_READ,
      schema: productsResponse,
      ttlMs: 5 * 60_000,
      cacheControl: 'no-cache',
      build: async () => ({ value: await activeCatalogue(app.db) }),
    }),
  );

  r.post(
    '/api/Order/OrderProduct',
    {
      // Uses only the buyer's id; the statement checks the balance itself (plugins/session.ts).
      config: { access: 'user', identityOnly: true },
      schema: { body: orderProductBody, response: { 200: messageBody } },
    },
    async (request) => {
      const user = currentUser(request);
      const { message, stockTaken } = await placeOrder(app.database, user.id, request.body.productId);
      if (stockTaken) app.reads.invalidate(PRODUCTS_READ);
      return { message };
    },
  );
}
