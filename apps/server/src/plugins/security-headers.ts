/**
 * Security headers on every answer but the Kick webhook's (no browser reads those; its route says
 * `config: { securityHeaders: false }`).
 *
 * Documents (the web app, its overlays and OBS browser sources, the server-rendered pages, static
 * files) get helmet's set: a Content-Security-Policy without inline script (they load only our own
 * script files; the server-rendered pages use one script file too, lib/html.ts), HSTS in production
 * only (a development server on plain http must not pin browsers to https), nosniff, a same-origin
 * referrer and framing policy. Styles may be inline (components set style attributes); images may
 * come from any https host (Steam, Kick and Discord avatars, product images admins link), and from
 * http outside production.
 *
 * API answers (`/api/…`, JSON only: no route there renders HTML) get the set OWASP's REST Security
 * cheat sheet names for JSON APIs, the headers a browser acts on for a response that is never a
 * document: `Content-Security-Policy: default-src 'none'; frame-ancestors 'none'` (nothing may load
 * or frame it), `X-Frame-Options: DENY` for browsers older than frame-ancestors, nosniff (never
 * sniffed into a script or a page), `Cross-Origin-Resource-Policy: same-origin` (no other site may
 * pull it into its process), and HSTS in production. The other eight of helmet's headers (referrer,
 * DNS prefetch, download, cross-domain, XSS filter, origin-agent-cluster policies) govern what a
 * document does and mean nothing on JSON; sending them cost each read ~5 µs of a ~25 µs answer.
 *
 * helmet makes both sets, once, at start: none of them depends on the request (no nonces, no
 * directive functions), and @fastify/helmet rebuilt the whole helmet middleware, CSP included, on
 * every request (~10 µs each, the largest cost of a cached public read).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { plugin } from '../lib/plugin';
import helmet, { type HelmetOptions } from 'helmet';
import { PAGE_SCRIPT_PATH, pageScript } from '../lib/html';
import { pathStartsWith } from '../lib/request-path';

declare module 'fastify' {
  interface FastifyInstance {
    /** The headers every API answer carries (for answers given outside the router). */
    apiSecurityHeaders: ReadonlyArray<readonly [string, string]>;
    /** The headers every document and static file carries (for answers given outside the router). */
    documentSecurityHeaders: ReadonlyArray<readonly [string, string]>;
  }
  interface FastifyContextConfig {
    /** false: this route's answers carry no security headers (machine-to-machine webhooks). */
    securityHeaders?: boolean;
  }
}

/**
 * The headers helmet sets for `options`, as [name, value] pairs in helmet's order. Its one removal
 * (X-Powered-By) is left out: neither Node nor Fastify sets that header.
 */
export function helmetHeaders(options: HelmetOptions): ReadonlyArray<readonly [string, string]> {
  const headers: Array<[string, string]> = [];
  const capture = {
    setHeader(name: string, value: string | number) {
      headers.push([name, String(value)]);
    },
    removeHeader() {},
  };
  helmet(options)({} as IncomingMessage, capture as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error(String(err));
  });
  return headers;
}

export function securityHeaderOptions(publicOrigin: string, production: boolean): HelmetOptions {
  const socketOrigin = publicOrigin.replace(/^http/, 'ws');
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', ...(production ? [] : ['http:'])],
        fontSrc: ["'self'", 'data:'],
        mediaSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'", socketOrigin],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        formAction: ["'self'"],
        ...(production ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: production ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    // No opener policy: the sign-in popup passes through Steam (or the dev provider) and must keep
    // its opener to hand the result back; any policy on one of its pages would sever it.
    crossOriginOpenerPolicy: false,
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'same-origin' },
    frameguard: { action: 'sameorigin' },
  };
}

/** The headers of an API answer (JSON, never a document): see the comment at the top. */
export function apiSecurityHeaderOptions(production: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    hsts: production ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    crossOriginOpenerPolicy: false,
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    originAgentCluster: false,
    referrerPolicy: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: { action: 'deny' },
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  };
}

export const securityHeadersPlugin = plugin({
  name: 'securityHeadersPlugin',
})(async (app: FastifyInstance) => {
  const { config } = app;
  const documentHeaders = helmetHeaders(securityHeaderOptions(config.publicOrigin, config.isProduction));
  const apiHeaders = helmetHeaders(apiSecurityHeaderOptions(config.isProduction));
  app.decorate('apiSecurityHeaders', apiHeaders);
  app.decorate('documentSecurityHeaders', documentHeaders);
  // On the raw response, as helmet did, so that a route's own header of the same name still wins.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.securityHeaders !== false) {
      const raw = reply.raw;
      for (const [name, value] of pathStartsWith(request, '/api/') ? apiHeaders : documentHeaders) {
        raw.setHeader(name, value);
      }
    }
    done();
  });

  app.get(PAGE_SCRIPT_PATH, { config: { access: 'public' } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(pageScript),
  );
});
