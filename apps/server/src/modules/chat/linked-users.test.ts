/**
 * The in-memory set of linked Kick accounts: read once before the first lookup, then reloaded
 * every few minutes beside the chat — a lookup never waits for that reload.
 */
import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { LinkedUsers, RELOAD_EVERY_MS } from './linked-users';

const row = (kickId: string, username: string) => ({
  id: `user-${username}`,
  username,
  kick_id: kickId,
  kick_username: username,
  excluded: false,
});

/** A database whose full reads answer only when the test lets them. */
function gatedDatabase() {
  const pending: Array<(rows: unknown[]) => void> = [];
  const database = {
    query: () => new Promise<unknown[]>((resolve) => pending.push(resolve)),
  } as unknown as Database;
  return { database, answer: (rows: unknown[]) => pending.shift()!(rows), waiting: () => pending.length };
}

describe('linked Kick users', () => {
  it('waits for the first read, then reloads in the background without holding a lookup', async () => {
    let now = 1_000;
    const db = gatedDatabase();
    const linked = new LinkedUsers(db.database, () => now);

    const first = linked.find('1');
    await Promise.resolve();
    expect(db.waiting()).toBe(1);
    db.answer([row('1', 'alice')]);
    expect(await first).toMatchObject({ username: 'alice' });

    // Due for a reload: the lookup answers from memory at once while the read is still out.
    now += RELOAD_EVERY_MS + 1;
    expect(await linked.find('1')).toMatchObject({ username: 'alice' });
    expect(await linked.find('2')).toBeNull();
    expect(db.waiting()).toBe(1); // one reload, however many lookups meanwhile

    db.answer([row('1', 'alice'), row('2', 'bob')]);
    await new Promise((r) => setImmediate(r));
    expect(await linked.find('2')).toMatchObject({ username: 'bob' });
    expect(db.waiting()).toBe(0);
  });
});
