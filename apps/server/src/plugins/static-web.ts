/**
 * Serves the built web app on the API's port: hashed assets with long caching, overlay.html (the OBS
 * overlays' own small entry) for the overlay paths, index.html for every other page route (the SPA
 * decides what exists and shows its not-found page), JSON 404 for unknown /api paths.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { messages } from '@kickback/common/messages';
import { overlayAt } from '@kickback/common/overlays';
import { routePath } from '../lib/request-path';

/** apps/web/dist, found by walking up from this file (source tree or server bundle). */
export function defaultWebDist(): string | null {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'apps', 'web', 'dist');
    if (existsSync(path.join(candidate, 'index.html'))) return candidate;
    dir = path.dirname(dir);
  }
  return null;
}

/**
 * Build output that is for developers, never for visitors: the bundle report (page sizes and the
 * packages in each chunk, apps/web/build-plugins.ts) and its compressed copies: no route is made for
 * them, so they answer 404 like any unknown file.
 */
const privateBuildFiles = ['bundle-report.json', 'bundle-report.json.br', 'bundle-report.json.gz'];

const nonPagePrefixes = ['/api/', '/auth/', '/dev/', '/internal/', '/webhooks/', '/socket.io/', '/assets/', '/metrics'];

export const staticWebPlugin = fp(async (app: FastifyInstance, opts: { webDist: string | null }) => {
  const { webDist } = opts;
  if (webDist) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      globIgnore: privateBuildFiles,
      // The build writes .br and .gz beside each text asset (apps/web/build-plugins.ts).
      preCompressed: true,
      setHeaders(reply, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        } else {
          reply.header('cache-control', 'public, max-age=300');
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const urlPath = routePath(request);
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !nonPagePrefixes.some((p) => urlPath.startsWith(p)) &&
      !/\.[a-z0-9]{2,5}$/i.test(urlPath);
    if (isPage && webDist) {
      reply.header('cache-control', 'no-cache');
      const page = overlayAt(urlPath) ? 'overlay.html' : 'index.html';
      return reply.status(200).sendFile(page);
    }
    if (isPage) {
      return reply
        .status(503)
        .type('text/plain')
        .send('The web app is not built. Run `npm run build` (npm start does it for you).');
    }
    return reply.status(404).send({ message: messages.notFound });
  });
});
