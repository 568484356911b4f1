/** Public site configuration for the web app: branding, footer links, dev sign-in flag. */
import type { FastifyInstance } from 'fastify';
import { siteEndpoints } from '@kickback/common/http/site';
import { cachedRead, sessionlessRead } from '../../plugins/cached-reads';
import { route } from '../../plugins/endpoints';

export async function siteRoutes(app: FastifyInstance): Promise<void> {
  route(
    app,
    siteEndpoints.config,
    sessionlessRead,
    // The configuration is fixed for the life of the process.
    cachedRead(app, {
      key: 'site',
      schema: siteEndpoints.config.response,
      ttlMs: Number.MAX_SAFE_INTEGER,
      cacheControl: 'public, max-age=60',
      build: async () => ({ value: app.config.site }),
    }),
  );
}
