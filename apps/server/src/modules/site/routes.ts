/** Public site configuration for the web app: branding, footer links, dev sign-in flag. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { siteConfig } from '@kickback/common/http/site';

export async function siteRoutes(app: FastifyInstance): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/api/site',
      { config: { access: 'public' }, schema: { response: { 200: siteConfig } } },
      async (_request, reply) => {
        reply.header('cache-control', 'public, max-age=60');
        return app.config.site;
      },
    );
}
