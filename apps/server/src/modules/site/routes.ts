/** Public site configuration for the web app: branding, footer links, dev sign-in flag. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { siteConfig } from '@kickback/common/http/site';
import { cachedRead, cachedReadConfig } from '../../plugins/cached-reads';

export async function siteRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/site',
    { config: cachedReadConfig, schema: { response: { 200: siteConfig } } },
    // The configuration is fixed for the life of the process.
    cachedRead(app, {
      key: 'site',
      schema: siteConfig,
      ttlMs: Number.MAX_SAFE_INTEGER,
      cacheControl: 'public, max-age=60',
      build: async () => ({ value: app.config.site }),
    }),
  );
}
