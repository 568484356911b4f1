/**
 * The `/SlotCalls` hub (docs/features/slot-calls.md#pages): a watcher gets the queue's committed
 * state after each change, newer versions only; a refused call or a refused action sends nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slotCallsHub, type SlotCallsState } from '@kickback/common/hubs/slot-calls';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { HubClient, listen, WallClock } from '../../../test/hub-client';

let t: TestApp;
let url: string;
let admin: TestUser;
let watcher: HubClient;

beforeAll(async () => {
  t = await buildTestApp({ clock: new WallClock() });
  url = await listen(t.app);
  admin = await t.signIn({ role: 'Admin', name: 'Host' });
  watcher = await new HubClient(url, slotCallsHub, { query: {} }).connected();
});
afterAll(async () => {
  watcher?.close();
  await t.close();
});

const call = (typed: string, kickUserId = 'k-live') =>
  t.app.slotCalls.call(
    {
      messageId: `m-${Math.random()}`,
      kickUserId,
      kickUsername: kickUserId,
      isSubscriber: false,
      linkedUser: null,
      typed,
    },
    async () => true,
  );

describe('live state', () => {
  it('every watcher gets the committed state of each change; a refusal sends nothing', async () => {
    const opened = await t.call({ method: 'POST', url: '/api/admin/slot-calls/open', as: admin });
    const version = opened.json<{ state: SlotCallsState }>().state.version;
    await watcher.waitFor<SlotCallsState>('ReceiveState', (s) => s.version === version && s.open);
    expect((await call('gates of olympus')).ok).toBe(true);
    const seen = await watcher.waitFor<SlotCallsState>('ReceiveState', (s) => s.queue.length === 1);
    expect(seen.nextUp).toMatchObject({ slot: 'Gates of Olympus', caller: 'k-live' });
    const count = watcher.events('ReceiveState').length;
    expect(await call('sugar rush')).toEqual({ ok: false, reason: expect.stringContaining('already have 1 call') });
    expect((await t.call({ method: 'POST', url: '/api/admin/slot-calls/open', as: admin })).statusCode).toBe(409);
    expect((await call('mental', 'k-other')).ok).toBe(true);
    const after = await watcher.waitFor<SlotCallsState>('ReceiveState', (s) => s.queue.length === 2);
    expect(watcher.events('ReceiveState').length).toBe(count + 1);
    expect(after.version).toBeGreaterThan(seen.version);
    expect((await watcher.ok<SlotCallsState>('GetState')).version).toBe(after.version);
  });
});
