/**
 * Security headers on every answer but the Kick webhook's (no browser reads those), through
 * @fastify/helmet: a Content-Security-Policy without inline script (the web app, its overlays and
 * OBS browser sources load only our own script files; the server-rendered pages use one script file
 * too, lib/html.ts), HSTS in production only (a development server on plain http must not pin
 * browsers to https), nosniff, a same-origin referrer and framing policy.
 *
 * Styles may be inline (components set style attributes); images may come from any https host
 * (Steam, Kick and Discord avatars, product images admins link), and from http outside production.
 */
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { PAGE_SCRIPT_PATH, pageScript } from '../lib/html';

export const securityHeadersPlugin = fp(async (app: FastifyInstance) => {
  const { config } = app;
  const production = config.isProduction;
  const socketOrigin = config.publicOrigin.replace(/^http/, 'ws');
  await app.register(fastifyHelmet, {
    global: true,
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
  });

  app.get(PAGE_SCRIPT_PATH, { config: { access: 'public' } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(pageScript),
  );
});
