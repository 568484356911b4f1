/** Public site configuration for the web app: branding, footer links, dev sign-in flag. */
import type { FastifyInstance } from 'fastify';
import { siteEndpoints } from '@kickback/common/http/site';
import { route } from '../../plugins/endpoints';

export async function siteRoutes(app: FastifyInstance): Promise<void> {
  route(app, siteEndpoints.config, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=60');
    return app.config.site;
  });
}
