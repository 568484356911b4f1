/**
 * The dev identity provider: an OpenID 2.0 provider that stands in for Steam when Steam is not
 * configured (never in production). It speaks Steam's protocol — same fields, same signed list,
 * same claimed_id form, same `check_authentication` answer — so the real verification code runs.
 * A simulated `GetPlayerSummaries` serves the names people type here.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  DEMO_STEAM_ID_MAX,
  DEMO_STEAM_ID_MIN,
  isDemoSteamId,
  isSteamId64,
  STEAM_ID_RULE,
} from '@kickback/common/steam-id';
import { demoUsers } from '../../config';
import { escapeHtml, page } from '../../lib/html';
import { isLoopbackClient } from '../../lib/loopback-client';
import { OPENID_NS, STEAM_ASSOC_HANDLE, STEAM_SIGNED_FIELDS, toKeyValue } from './openid';

interface DevProfile {
  personaName: string;
  avatarUrl: string;
}

const hues = [145, 200, 265, 320, 25, 55];

/** A generated avatar: initials on a colour picked from the SteamID. */
export function avatarSvg(steamId: string, name: string): string {
  const hue = hues[Number(steamId.slice(-3)) % hues.length] ?? 145;
  const initials = escapeHtml(
    name
      .split(/\s+/)
      .map((w) => w[0] ?? '')
      .join('')
      .slice(0, 2)
      .toUpperCase() || '?',
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="184" height="184" viewBox="0 0 184 184"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,45%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},70%,30%)"/></linearGradient></defs><rect width="184" height="184" fill="url(#g)"/><text x="92" y="92" dy=".35em" text-anchor="middle" font-family="system-ui,sans-serif" font-size="72" font-weight="700" fill="#fff">${initials}</text></svg>`;
}

const signinForm = z.object({
  steamid: z.string().trim().refine(isSteamId64, `Enter ${STEAM_ID_RULE}.`),
  personaname: z.string().trim().min(1, 'Display name is required').max(32, 'Display name is at most 32 characters'),
  /** Set by a demo user's button; a typed id never gets a demo account. */
  demo: z.literal('1').optional(),
});

export const DEMO_RANGE_TEXT = `${DEMO_STEAM_ID_MIN} to ${DEMO_STEAM_ID_MAX}`;

/**
 * Which account a posted form signs into, or why not: a demo id only through its demo button, and
 * the demo button only for a demo user; any other valid id is its own account (new the first time).
 */
export function devSigninTarget(form: {
  steamid: string;
  personaname: string;
  demo?: '1' | undefined;
}): { ok: true; steamId: string; name: string } | { ok: false; error: string } {
  if (form.demo) {
    const demo = demoUsers.find((u) => u.steamId === form.steamid);
    if (!demo) return { ok: false, error: `${form.steamid} is not a demo user.` };
    return { ok: true, steamId: demo.steamId, name: demo.name };
  }
  if (isDemoSteamId(form.steamid)) {
    return {
      ok: false,
      error: `${form.steamid} is a demo id (demo ids run from ${DEMO_RANGE_TEXT}). Pick the demo user below, or type another id.`,
    };
  }
  return { ok: true, steamId: form.steamid, name: form.personaname };
}

export async function devIdentityProvider(app: FastifyInstance): Promise<void> {
  const { publicUrl } = app.config;
  const providerUrl = app.config.steam.openIdUrl;
  const key = createHmac('sha256', app.config.sessionSecret).update('dev-openid-provider').digest();
  const profiles = new Map<string, DevProfile>();
  const verifiedNonces = new Map<string, number>();
  for (const u of demoUsers) {
    profiles.set(u.steamId, { personaName: u.name, avatarUrl: `${publicUrl}/dev/steam/avatar/${u.steamId}.svg` });
  }

  const sign = (fields: Record<string, string>): string => {
    const signed = (fields['openid.signed'] ?? '').split(',');
    const kv = toKeyValue(signed.map((name) => [name, fields[`openid.${name}`] ?? '']));
    return createHmac('sha256', key).update(kv).digest('base64');
  };

  const renderLogin = (query: Record<string, string>, error?: string) => {
    const action = `/dev/openid/login?${new URLSearchParams(query).toString()}`;
    const suggested = `7656119${String(8_000_000_000 + (randomBytes(4).readUInt32BE() % 1_000_000_000)).padStart(10, '0')}`;
    const demos = demoUsers
      .map(
        (u) => `<form method="post" action="${escapeHtml(action)}">
  <input type="hidden" name="steamid" value="${u.steamId}"><input type="hidden" name="personaname" value="${escapeHtml(u.name)}"><input type="hidden" name="demo" value="1">
  <button class="demo" type="submit"><img alt="" src="/dev/steam/avatar/${u.steamId}.svg"><span>${escapeHtml(u.name)}<br><small class="hint">${u.steamId}</small></span>${u.admin ? '<span class="badge">Admin</span>' : u.moderator ? '<span class="badge">Moderator</span>' : ''}</button>
</form>`,
      )
      .join('\n');
    return page(
      'Dev sign-in — Kickback',
      `<h1>Dev sign-in</h1>
<p class="lead">This stands in for Steam while Steam sign-in is not configured. It answers exactly as Steam does.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<div class="card">
<form method="post" action="${escapeHtml(action)}">
  <label for="personaname">Display name</label>
  <input id="personaname" name="personaname" required maxlength="32" autocomplete="nickname" placeholder="e.g. LuckyLuke">
  <label for="steamid">SteamID64</label>
  <input id="steamid" name="steamid" required pattern="[0-9]{17}" inputmode="numeric" value="${suggested}">
  <div class="hint">17 digits (76561197960265729 to 76561202255233023). Signing in again with the same id is the same account; an id nobody used yet is a new account.</div>
  <button class="primary" type="submit">Sign in</button>
</form>
</div>
<div class="card"><div class="row"><strong>Demo users</strong></div>
<div class="hint">Demo ids are ${DEMO_RANGE_TEXT}; they are reached only through these buttons, never by typing.</div>${demos}</div>
<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="cancel" value="1"><button class="ghost" type="submit">Cancel</button></form>`,
      app.config.site.accentColor,
    );
  };

  // Only this machine may sign in here, whatever the server listens on and whatever a proxy or the
  // client says in X-Forwarded-For (lib/loopback-client.ts), unless ALLOW_DEV_SIGNIN asks otherwise.
  app.addHook('onRequest', async (request, reply) => {
    if (app.config.devSignInFromAnywhere || isLoopbackClient(request)) return;
    if (request.url.startsWith('/dev/steam/avatar/')) return; // pictures only, shown on public pages
    request.log.warn({ ip: request.ip, peer: request.socket.remoteAddress }, 'dev sign-in refused: not this machine');
    return reply
      .status(403)
      .type('text/html; charset=utf-8')
      .send(
        page(
          'Dev sign-in — Kickback',
          '<h1>Dev sign-in works on this machine only</h1><p class="lead">This site signs in through the dev identity provider, which lets anyone be anyone. It answers only browsers on the machine the server runs on. To open the site to others, set it up with Steam sign-in behind HTTPS (docs/operations.md).</p>',
        ),
      );
  });

  const setupQuery = z.object({
    'openid.ns': z.literal(OPENID_NS),
    'openid.mode': z.literal('checkid_setup'),
    'openid.return_to': z.string().url(),
    'openid.realm': z.string().url(),
    'openid.identity': z.string(),
    'openid.claimed_id': z.string(),
  });

  const readSetup = (query: unknown): Record<string, string> | null => {
    const parsed = setupQuery.safeParse(query);
    if (!parsed.success) return null;
    if (!parsed.data['openid.return_to'].startsWith(parsed.data['openid.realm'])) return null;
    return parsed.data;
  };

  app.get('/dev/openid/login', async (request, reply) => {
    const setup = readSetup(request.query);
    reply.type('text/html; charset=utf-8');
    if (!setup) return reply.status(400).send(page('Bad request', '<h1>Not a valid OpenID sign-in request.</h1>'));
    return renderLogin(setup);
  });

  app.post('/dev/openid/login', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (body['openid.mode'] === 'check_authentication') {
      reply.type('text/plain; charset=utf-8');
      return toKeyValue([
        ['ns', OPENID_NS],
        ['is_valid', checkAuthentication(body) ? 'true' : 'false'],
      ]);
    }
    const setup = readSetup(request.query);
    reply.type('text/html; charset=utf-8');
    if (!setup) return reply.status(400).send(page('Bad request', '<h1>Not a valid OpenID sign-in request.</h1>'));
    if (body.cancel === '1') {
      // What Steam does when the person cancels: back to return_to with openid.mode=cancel.
      const target = new URL(setup['openid.return_to'] ?? publicUrl);
      target.searchParams.set('openid.ns', OPENID_NS);
      target.searchParams.set('openid.mode', 'cancel');
      return reply.redirect(target.toString(), 302);
    }
    const form = signinForm.safeParse(body);
    if (!form.success) return reply.status(400).send(renderLogin(setup, form.error.issues[0]?.message));
    const chosen = devSigninTarget(form.data);
    if (!chosen.ok) return reply.status(400).send(renderLogin(setup, chosen.error));
    const { steamId: steamid, name: personaname } = chosen;
    const existing = profiles.get(steamid);
    profiles.set(steamid, {
      personaName: personaname,
      avatarUrl: existing?.avatarUrl ?? `${publicUrl}/dev/steam/avatar/${steamid}.svg`,
    });
    const claimed = `https://steamcommunity.com/openid/id/${steamid}`;
    const fields: Record<string, string> = {
      'openid.ns': OPENID_NS,
      'openid.mode': 'id_res',
      'openid.op_endpoint': providerUrl,
      'openid.claimed_id': claimed,
      'openid.identity': claimed,
      'openid.return_to': setup['openid.return_to'] ?? '',
      'openid.response_nonce': `${new Date().toISOString().slice(0, 19)}Z${randomBytes(12).toString('hex')}`,
      'openid.assoc_handle': STEAM_ASSOC_HANDLE,
      'openid.signed': STEAM_SIGNED_FIELDS,
    };
    fields['openid.sig'] = sign(fields);
    const target = new URL(setup['openid.return_to'] ?? publicUrl);
    for (const [k, v] of Object.entries(fields)) target.searchParams.set(k, v);
    return reply.redirect(target.toString(), 302);
  });

  /** Like Steam: the signature must match and a nonce is verified at most once. */
  function checkAuthentication(body: Record<string, unknown>): boolean {
    const fields: Record<string, string> = {};
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string') fields[k] = v;
    if (fields['openid.signed'] !== STEAM_SIGNED_FIELDS) return false;
    if (fields['openid.op_endpoint'] !== providerUrl) return false;
    const expected = Buffer.from(sign(fields));
    const given = Buffer.from(fields['openid.sig'] ?? '');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
    const nonce = fields['openid.response_nonce'] ?? '';
    const now = Date.now();
    for (const [n, at] of verifiedNonces) if (now - at > 10 * 60 * 1000) verifiedNonces.delete(n);
    if (verifiedNonces.has(nonce)) return false;
    verifiedNonces.set(nonce, now);
    return true;
  }

  app.get('/dev/steam/ISteamUser/GetPlayerSummaries/v0002/', async (request, reply) => {
    const q = request.query as Record<string, unknown>;
    if (typeof q.key !== 'string' || q.key === '') return reply.status(403).send('Forbidden');
    const ids = typeof q.steamids === 'string' ? q.steamids.split(',').slice(0, 100) : [];
    const players = ids.flatMap((id) => {
      const p = profiles.get(id);
      if (!p) return [];
      return [
        {
          steamid: id,
          personaname: p.personaName,
          profileurl: `https://steamcommunity.com/profiles/${id}/`,
          avatar: p.avatarUrl,
          avatarmedium: p.avatarUrl,
          avatarfull: p.avatarUrl,
          personastate: 1,
          communityvisibilitystate: 3,
          profilestate: 1,
        },
      ];
    });
    return { response: { players } };
  });

  app.get('/dev/steam/avatar/:file', async (request, reply) => {
    const file = (request.params as { file: string }).file;
    const id = file.replace(/\.svg$/, '');
    if (!isSteamId64(id)) return reply.status(404).send('Not found');
    const name = profiles.get(id)?.personaName ?? '?';
    reply.type('image/svg+xml').header('cache-control', 'public, max-age=300');
    return avatarSvg(id, name);
  });
}
