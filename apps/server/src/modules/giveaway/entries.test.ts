/**
 * The batched entry statement's plan. PostgreSQL keeps a named statement's generic plan per
 * connection until the tables are analyzed again (never, without autovacuum), so a plan made while
 * the tables were fresh is the one used once they hold 60,000 chatters: each sender's chat activity
 * must then still be ONE primary-key probe, not the whole table hashed for every batch (which made
 * PostgreSQL's CPU per entry grow with the table: 0.06 ms → 0.37 ms over 60,000 entries).
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client';
import { migrate } from '../../db/migrate';
import { drawEntryOf } from './facts';
import { ENTRY_STATEMENT } from './entries';

const batch = (from: number) =>
  JSON.stringify(
    Array.from({ length: 16 }, (_, n) => ({
      n,
      key: '!join',
      kick_user_id: String(from + n),
      kick_username: `chatter_${from + n}`,
      draw_entry: drawEntryOf(String(from + n), `chatter_${from + n}`),
      color: '#53FC18',
      at: new Date().toISOString(),
      may_insert: true,
    })),
  );

describe('the batched entry statement', () => {
  it("looks each sender's chat activity up by primary key, in a plan made while the tables were empty", async () => {
    const database = await openDatabase({ kind: 'pglite', dataDir: null });
    try {
      await migrate(database);
      await database.query(`INSERT INTO giveaway_keys (key_lower, key, created_at) VALUES ('!join', '!join', now())`);
      // The plan made once and kept, as for a statement prepared on a fresh database.
      await database.query('SET plan_cache_mode = force_generic_plan');
      await database.query(`PREPARE enter_batch(jsonb) AS ${ENTRY_STATEMENT}`);
      const entered = await database.query<{ inserted: boolean }>(`EXECUTE enter_batch('${batch(0)}')`);
      expect(entered.map((r) => r.inserted)).toEqual(Array(16).fill(true));
      // The chatters grow (no ANALYZE follows, as with autovacuum off).
      await database.query(
        `INSERT INTO kick_chat_activity (kick_user_id, kick_username, color, is_subscriber, last_message_at, updated_at)
         SELECT g::text, 'chatter_' || g, '#53FC18', g % 10 = 0, now(), now() FROM generate_series(1000, 21000) g`,
      );
      const plan = (await database.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE enter_batch('${batch(1000)}')`))
        .map((r) => r['QUERY PLAN'])
        .join('\n');
      expect(plan).toMatch(/Index Scan using kick_chat_activity_pkey on kick_chat_activity/);
      expect(plan).not.toMatch(/Seq Scan on kick_chat_activity/);
      // And what it answers is still right: the stored activity's subscriber mark.
      const rows = await database.query<{ n: number; is_subscriber: boolean; inserted: boolean }>(
        `EXECUTE enter_batch('${batch(1000)}')`,
      );
      expect(rows.map((r) => [r.n, r.is_subscriber, r.inserted])).toEqual(
        Array.from({ length: 16 }, (_, n) => [n, (1000 + n) % 10 === 0, true]),
      );
    } finally {
      await database.close();
    }
  });
});
