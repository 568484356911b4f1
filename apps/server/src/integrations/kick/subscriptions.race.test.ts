/**
 * Two processes keeping Kick's webhook subscriptions at once (integrations/kick/subscriptions.ts,
 * docs/features/kick-events-and-bans.md): with the database's advisory lock they take turns, so the
 * missing events are created once. Without it both list before either creates, and Kick — which
 * keeps duplicate subscriptions — would deliver every event twice under different message ids.
 * On PostgreSQL (test/race-database), where two processes really overlap.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { describeRace, raceDatabaseUrl } from '../../../test/race-database';
import { openTestDatabase } from '../../../test/database';
import { kickAppApi } from '../../../test/kick';
import type { KickApi } from './api';
import { ensureKickSubscriptions, KICK_SUBSCRIPTIONS_LOCK } from './subscriptions';

/** Kick's subscriptions endpoint with state: a list takes 100 ms, a create adds what it is given. */
function statefulKick() {
  const subscriptions: Array<{ event: string }> = [];
  const http: typeof fetch = async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    if (url === 'https://id.kick.com/oauth/token') {
      return Response.json({ access_token: 'app-token', token_type: 'Bearer', expires_in: 3600 });
    }
    if (url === 'https://api.kick.com/public/v1/events/subscriptions' && method === 'GET') {
      const seen = subscriptions.map((s, i) => ({
        id: `sub-${i}`,
        app_id: 'app',
        broadcaster_user_id: 123,
        event: s.event,
        version: 1,
        method: 'webhook',
      }));
      await new Promise((r) => setTimeout(r, 100));
      return Response.json({ data: seen, message: 'OK' });
    }
    if (url === 'https://api.kick.com/public/v1/events/subscriptions' && method === 'POST') {
      const body = JSON.parse(String(init?.body)) as { events: Array<{ name: string }> };
      for (const e of body.events) subscriptions.push({ event: e.name });
      return Response.json({
        data: body.events.map((e, i) => ({ name: e.name, version: 1, subscription_id: `new-${i}`, error: null })),
        message: 'OK',
      });
    }
    return new Response('{}', { status: 404 });
  };
  return { subscriptions, processApi: () => kickAppApi(http) };
}

let database: (Database & { drop(): Promise<void> }) | undefined;
beforeAll(async () => {
  database = await openTestDatabase(raceDatabaseUrl);
});
afterAll(async () => {
  await database?.drop();
});

describeRace('Kick subscriptions kept by two processes at once', () => {
  it('creates each missing event once', async () => {
    const kick = statefulKick();
    const events = ['chat.message.sent', 'channel.followed', 'channel.subscription.gifts'];
    const keep = (api: KickApi) =>
      database!.withAdvisoryLock(KICK_SUBSCRIPTIONS_LOCK, () => ensureKickSubscriptions(api, '123', events));
    const [a, b] = await Promise.all([keep(kick.processApi()), keep(kick.processApi())]);
    expect(kick.subscriptions.map((s) => s.event).sort()).toEqual([...events].sort());
    expect([...a.created, ...b.created].sort()).toEqual([...events].sort());
  });
});
