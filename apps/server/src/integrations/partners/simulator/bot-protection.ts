/**
 * The bot protection in front of two partners, switchable in the simulators so the failure can be
 * seen and the fix (PARTNER_HEADERS) tried: Clash.gg wants a `let-me-in` cookie, and Cases.gg sits
 * behind a Cloudflare challenge that answers 403 with an HTML page to a client without clearance.
 * `POST /dev/partners/{clash|cases}/bot-protection {"on": true}` turns it on; while on, a request
 * without the cookie gets the challenge page, as a plain client does from the real sites.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

/** The cookie each protected partner lets through. */
const PASS_COOKIE: Record<string, string> = { clash: 'let-me-in', cases: 'cf_clearance' };

const CHALLENGE_PAGE = `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta http-equiv="refresh" content="390"></head><body><div id="challenge-platform"><h1>Checking if the site connection is secure</h1><p>Enable JavaScript and cookies to continue</p></div></body></html>`;

export class BotProtection {
  private readonly on = new Set<string>();

  set(slug: string, on: boolean): void {
    if (on) this.on.add(slug);
    else this.on.delete(slug);
  }

  /** True when the request got the challenge page instead of the API (the reply is sent). */
  challenged(slug: string, request: FastifyRequest, reply: FastifyReply): boolean {
    const cookie = PASS_COOKIE[slug];
    if (!cookie || !this.on.has(slug)) return false;
    const cookies = (request.headers.cookie ?? '').split(';').map((c) => c.trim().split('=')[0]);
    if (cookies.includes(cookie)) return false;
    void reply.status(403).header('cf-mitigated', 'challenge').type('text/html; charset=UTF-8').send(CHALLENGE_PAGE);
    return true;
  }
}

export function botProtectionRoutes(app: FastifyInstance, protection: BotProtection): void {
  app.post('/dev/partners/:slug/bot-protection', async (request, reply) => {
    const { slug } = request.params as { slug: string };
    if (!PASS_COOKIE[slug]) return reply.status(404).send({ message: 'Only clash and cases have bot protection.' });
    const body = z.object({ on: z.boolean() }).safeParse(request.body);
    if (!body.success) return reply.status(400).send({ message: 'on: true or false is required.' });
    protection.set(slug, body.data.on);
    return { slug, on: body.data.on, passCookie: PASS_COOKIE[slug] };
  });
}
