import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../../test/app';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { rowsOf } from '../../db/rows';
import { removalPolicies } from './policy';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

beforeAll(warmUp, WARM_UP_TIMEOUT);

describe('the account removal policies', () => {
  it('name every foreign key to users, and nothing else: a new one needs a decision (history kept or deleted)', async () => {
    t = await buildTestApp();
    const keys = rowsOf<{ key: string }>(
      await t.database.db.execute(sql`
        SELECT c.conrelid::regclass::text || '.' || a.attname AS key
        FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
        WHERE c.contype = 'f' AND c.confrelid = 'users'::regclass
      `),
    ).map((r) => r.key);
    expect(keys.length).toBeGreaterThan(40);
    const declared = Object.keys(removalPolicies);
    expect(
      keys.filter((k) => !declared.includes(k)),
      'foreign keys to users without a removal policy (modules/account-removal/policy.ts)',
    ).toEqual([]);
    expect(
      declared.filter((k) => !keys.includes(k)),
      'policies for no foreign key',
    ).toEqual([]);
  });
});
