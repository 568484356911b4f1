/**
 * Serves the built web app on the API's port: hashed assets with long caching, overlay.html (the OBS
 * overlays' own small entry) for the overlay paths, index.html for every other page route (the SPA
 * decides what exists and shows its not-found page), JSON 404 for unknown /api paths.
 *
 * The hashed assets under `assets/` are read into memory at start, with the .br and .gz copies the
 * build wrote, and answered in front of the router (lib/read-fast-path.ts): a file there never
 * changes under its name, and a page load asks for dozens of them. So are the public pictures and
 * sounds (`publicFolders`, about a megabyte, cached for 5 minutes): every page asks for the logo,
 * and through @fastify/static a small file the build left uncompressed was also compressed anew
 * per request. A source map, a query string or
 * a HEAD goes through @fastify/static as before (which, like this, knows only the files there at start).
 *
 * The two pages (index.html, overlay.html) are read into memory at start too, compressed once, and
 * answered by the not-found handler with a strong ETag (304 on a match): every page load asks for
 * one, and through @fastify/static each cost a stat, an open and a read stream. Like the assets,
 * a process serves the build it started with.
 *
 * Behind the production front (deploy/Caddyfile) none of the files reach this: Caddy answers them
 * from disk with the same headers, and sends the pages and source maps here
 * (docs/operations.md#the-production-layout). What is here serves `npm start` and a process asked directly.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { plugin } from '../lib/plugin';
import { overlayAt } from '@kickback/common/overlays';
import type { FastAsset } from '../lib/read-fast-path';
import { routePath } from '../lib/request-path';
import { sendReady } from '../lib/read-answer';
import { readyBody, type ReadyBody } from '../lib/read-cache';

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

/** Content types of the asset files held in memory; other files are left to @fastify/static. */
const assetTypes: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.wav': 'audio/wav',
};

/** The build's folders of public pictures and sounds (from apps/web/public; deploy/Caddyfile's list). */
export const publicFolders = ['avatars', 'brand', 'challenges', 'sounds', 'store'];
export const PUBLIC_CACHE_CONTROL = 'public, max-age=300';

export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * The files of `dir` (the build's `assets/`, or a public folder with `folder` and its caching) ready
 * to answer from memory at `/<folder>/<name>`: each with its header lists per answer, the document
 * security headers first (`securityHeaders`), as the router sends.
 */
export function loadAssets(
  dir: string,
  securityHeaders: ReadonlyArray<readonly [string, string]>,
  { folder, cacheControl }: { folder: string; cacheControl: string } = {
    folder: 'assets',
    cacheControl: ASSET_CACHE_CONTROL,
  },
): Map<string, FastAsset> {
  const assets = new Map<string, FastAsset>();
  if (!existsSync(dir)) return assets;
  for (const name of readdirSync(dir)) {
    const type = assetTypes[path.extname(name)];
    if (!type) continue; // .map, .br, .gz and anything unexpected: the router's
    const file = path.join(dir, name);
    const body = readFileSync(file);
    const copy = (ext: string) => (existsSync(`${file}${ext}`) ? readFileSync(`${file}${ext}`) : null);
    const br = copy('.br');
    const gzip = br ? copy('.gz') : null;
    const etag = `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
    const caching: Array<[string, string]> = [
      ['cache-control', cacheControl],
      ['etag', etag],
    ];
    const answer = (bytes: Buffer, encoding: string | null) =>
      [
        ...securityHeaders,
        ...caching,
        ['content-type', type],
        ...(br ? [['vary', 'accept-encoding']] : []),
        ...(encoding ? [['content-encoding', encoding]] : []),
        ['content-length', String(bytes.length)],
      ].flat();
    assets.set(`/${folder}/${name}`, {
      route: `/${folder}/*`,
      body,
      etag,
      br,
      gzip,
      headers: {
        plain: answer(body, null),
        br: br ? answer(br, 'br') : [],
        gzip: gzip ? answer(gzip, 'gzip') : [],
        'not-modified': [...securityHeaders, ...caching].flat(),
      },
    });
  }
  return assets;
}

export const PAGE_CACHE_CONTROL = 'no-cache';
const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';

/** A page of the build (`index.html`, `overlay.html`) ready to answer, or null when it is not there. */
export function loadPage(webDist: string, name: string): ReadyBody | null {
  const file = path.join(webDist, name);
  return existsSync(file) ? readyBody(readFileSync(file, 'utf8')) : null;
}

const nonPagePrefixes = ['/api/', '/auth/', '/dev/', '/internal/', '/webhooks/', '/socket.io/', '/assets/', '/metrics'];

/** The build's source maps (the web app's own source, comments included): not for visitors in production. */
const sourceMapFiles = ['**/*.map', '**/*.map.br', '**/*.map.gz'];

export const staticWebPlugin = plugin({
  name: 'staticWebPlugin',
})(async (app: FastifyInstance, opts: { webDist: string | null; sourceMaps?: boolean }) => {
  const { webDist } = opts;
  const pages = {
    site: webDist ? loadPage(webDist, 'index.html') : null,
    overlay: webDist ? loadPage(webDist, 'overlay.html') : null,
  };
  if (webDist) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      globIgnore: opts.sourceMaps === false ? [...privateBuildFiles, ...sourceMapFiles] : privateBuildFiles,
      // The build writes .br and .gz beside each text asset (apps/web/build-plugins.ts).
      preCompressed: true,
      setHeaders(reply, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('cache-control', ASSET_CACHE_CONTROL);
        } else {
          reply.header('cache-control', PUBLIC_CACHE_CONTROL);
        }
      },
    });
    if (app.hasDecorator('readFastPath')) {
      const security = app.hasDecorator('documentSecurityHeaders') ? app.documentSecurityHeaders : [];
      const files = [
        loadAssets(path.join(webDist, 'assets'), security),
        ...publicFolders.map((folder) =>
          loadAssets(path.join(webDist, folder), security, { folder, cacheControl: PUBLIC_CACHE_CONTROL }),
        ),
      ];
      for (const [urlPath, asset] of files.flatMap((f) => [...f])) app.readFastPath.addAsset(urlPath, asset);
    }
  }
  app.setNotFoundHandler((request, reply) => {
    const urlPath = routePath(request);
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !nonPagePrefixes.some((p) => urlPath.startsWith(p)) &&
      !/\.[a-z0-9]{2,5}$/i.test(urlPath);
    if (isPage && webDist) {
      const overlay = overlayAt(urlPath);
      const ready = overlay ? pages.overlay : pages.site;
      if (!ready) {
        reply.header('cache-control', PAGE_CACHE_CONTROL);
        return reply.status(200).sendFile(overlay ? 'overlay.html' : 'index.html');
      }
      return sendReady(request, reply, ready, PAGE_CACHE_CONTROL, HTML_CONTENT_TYPE);
    }
    if (isPage) {
      return reply
        .status(503)
        .type('text/plain')
        .send('The web app is not built. Run `npm run build` (npm start does it for you).');
    }
    return reply.status(404).send({ message: request.t('common:notFound') });
  });
});
