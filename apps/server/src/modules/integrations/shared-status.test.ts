/**
 * The Kick event subscriptions as every process shows them (docs/features/kick-events-and-bans.md):
 * the processes check them in turns and only a listening process checks at all, so a request landing
 * on another process must still see the newest check's result — kept in the database
 * (integrations/shared-status.ts), not in the process that made it.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { IntegrationsOverview } from '@kickback/common/http/integrations';
import { buildTestApp, type TestApp } from '../../../test/app';
import { openTestDatabase } from '../../../test/database';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { ManualClock } from '../../lib/clock';

/** Kick's app token and subscriptions endpoints; while `refusing`, every create is refused. */
function fakeKick() {
  const kick = {
    refusing: true,
    creates: 0,
    fetch: (async (input, init) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      if (url === 'https://id.kick.com/oauth/token') {
        return Response.json({ access_token: 'app-token', token_type: 'Bearer', expires_in: 3600 });
      }
      if (url === 'https://api.kick.com/public/v1/events/subscriptions' && method === 'GET') {
        return Response.json({ data: [], message: 'OK' });
      }
      if (url === 'https://api.kick.com/public/v1/events/subscriptions' && method === 'POST') {
        kick.creates += 1;
        const body = JSON.parse(String(init?.body)) as { events: Array<{ name: string }> };
        return Response.json({
          data: body.events.map((e, i) => ({
            name: e.name,
            version: 1,
            subscription_id: kick.refusing ? null : `new-${i}`,
            error: kick.refusing ? 'the app lacks the scope' : null,
          })),
          message: 'OK',
        });
      }
      return new Response('{}', { status: 404 });
    }) as typeof fetch,
  };
  return kick;
}

const env = { KICK_CLIENT_ID: 'client-id', KICK_CLIENT_SECRET: 'client-secret', KICK_BROADCASTER_USER_ID: '42' };
let database: Awaited<ReturnType<typeof openTestDatabase>> | null = null;
const apps: TestApp[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
  await database?.drop();
  database = null;
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

async function until(what: string, ok: () => boolean, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function overview(t: TestApp): Promise<IntegrationsOverview> {
  const admin = await t.signIn({ role: 'Admin' });
  const res = await t.call({ url: '/api/admin/integrations', as: admin });
  expect(res.statusCode).toBe(200);
  return res.json<IntegrationsOverview>();
}
const subscriptionsRow = (o: IntegrationsOverview) => o.rows.find((r) => r.id === 'kick.subscriptions');

describe('Kick event subscriptions on every process', () => {
  it("a process that does not check shows the checking process's failure, then its success", async () => {
    database = await openTestDatabase();
    const kick = fakeKick();
    const checker = await buildTestApp({ database, env, networkFetch: kick.fetch });
    apps.push(checker);
    const other = await buildTestApp({
      database,
      env,
      networkFetch: kick.fetch,
      clock: new ManualClock(checker.clock.now()),
    });
    apps.push(other);
    // Background work runs in a listening server only: the checker keeps the subscriptions, the
    // other process only answers requests.
    await checker.app.listen({ port: 0, host: '127.0.0.1' });
    const local = () => checker.app.integrationStatus.get('kick.subscriptions');
    await until('the checker was refused', () => local().down);

    let o = await overview(other);
    expect(subscriptionsRow(o)).toMatchObject({
      health: 'failing',
      lastFailure: expect.stringMatching(/^Kick refused subscriptions: chat\.message\.sent/),
    });
    expect(subscriptionsRow(o)?.lastFailure).toBe(local().lastFailure);
    for (const e of o.kickEvents.filter((e) => e.subscribed)) {
      expect(e, e.type).toMatchObject({ subscription: 'failing' });
    }

    // Kick takes them at the checker's retry (5 s later), a minute later on its clock.
    checker.clock.advance(60_000);
    kick.refusing = false;
    await until('the checker subscribed', () => !local().down && local().lastSuccessAt !== null, 30_000);
    for (const t of [other, checker]) {
      o = await overview(t);
      expect(subscriptionsRow(o)).toMatchObject({ health: 'ok', detail: expect.stringMatching(/ events subscribed$/) });
      for (const e of o.kickEvents.filter((e) => e.subscribed)) expect(e, e.type).toMatchObject({ subscription: 'ok' });
    }
  });
});
