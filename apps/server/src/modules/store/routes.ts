/**
 * The store's public API (docs/product.md#site-calls): the active catalogue and placing an order;
 * "notify me when back in stock" (docs/features/store-limits.md#back-in-stock).
 */
import type { FastifyInstance } from 'fastify';
import { detailKindOf, storeEndpoints } from '@kickback/common/http/store';
import { say } from '../../lib/i18n';
import { currentUser } from '../../plugins/access';
import { cachedReadRoute } from '../../plugins/cached-reads';
import { route } from '../../plugins/endpoints';
import { placeOrder } from './order-placer';
import { activeCatalogue, PRODUCTS_READ } from './presenter';
import { requestRestockAlert } from './restock';
import { codeVault } from './service';

export async function storeRoutes(app: FastifyInstance): Promise<void> {
  cachedReadRoute(app, storeEndpoints.products, {
    key: PRODUCTS_READ,
    ttlMs: 5 * 60_000,
    cacheControl: 'no-cache',
    build: async () => ({ value: await activeCatalogue(app.db) }),
  });

  route(
    app,
    storeEndpoints.order,
    // Uses only the buyer's id; the statement checks the balance itself (plugins/session.ts).
    { config: { identityOnly: true } },
    async (request) => {
      const user = currentUser(request);
      const value = request.body.deliveryDetail ?? null;
      const detail = { value, kind: value === null ? null : detailKindOf(value) };
      const placed = await placeOrder(app.database, user.id, request.body.productId, detail, app.clock.now());
      if (placed.stockTaken) app.reads.invalidate(PRODUCTS_READ);
      // In the buyer's language (docs/features/languages.md#server-messages).
      const message = say(request.locale, placed.message);
      if (placed.sealedCode === null) return { message, orderId: placed.orderId, code: null };
      const code = codeVault(app.config.codeKey)?.open(placed.sealedCode) ?? null;
      return {
        message: code === null ? message : request.t('store:codeDelivered', { name: placed.name }),
        orderId: placed.orderId,
        code,
      };
    },
  );

  route(app, storeEndpoints.restockAlert, async (request) => ({
    message: say(request.locale, await requestRestockAlert(app.db, currentUser(request).id, request.params.id)),
  }));
}
