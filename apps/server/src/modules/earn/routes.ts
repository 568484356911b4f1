/** `GET /api/earn`: the public "How to earn points" read (./service), kept until an amount changes. */
import type { FastifyInstance } from 'fastify';
import { earnEndpoints } from '@kickback/common/http/earn';
import { cachedReadRoute } from '../../plugins/cached-reads';
import { EARN_READ, earnWays } from './service';

export async function earnRoutes(app: FastifyInstance): Promise<void> {
  cachedReadRoute(app, earnEndpoints.ways, {
    key: EARN_READ,
    // Dropped by every write that changes an amount; the hour is a backstop, not the freshness.
    ttlMs: 60 * 60_000,
    cacheControl: 'no-cache',
    build: async () => ({ value: await earnWays(app) }),
  });
}
