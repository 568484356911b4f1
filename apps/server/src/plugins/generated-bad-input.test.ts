/**
 * Bad input generated from the schemas, not listed by hand: for every /api route with params, a
 * query or a body, and for every hub call that takes a payload, a handful of wrong inputs per field
 * built from the zod schema (through its JSON Schema): the wrong type, a missing required field,
 * numbers out of range (and beyond what the database holds), NUL characters, huge strings (1 MB,
 * and 100 KB within the body limit) and nesting 1,000 levels deep. Each is sent as an Admin (so every guard lets it through to the
 * input checks). None may answer a 5xx or show a stack trace, and together they change nothing in
 * the database: every table's row count and the money columns are the same before and after.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { EndpointSpec } from '@kickback/common/http/endpoint';
import { DEFAULT_AMOUNTS } from '@kickback/common/games/deal-or-no-deal';
import { HUB_MAX_PAYLOAD_BYTES, type HubSpec } from '@kickback/common/hubs/hub';
import { messages } from '@kickback/common/messages';
import { buildTestApp, type TestApp, type TestUser } from '../../test/app';
import { HubClient, listen } from '../../test/hub-client';
import { WARM_UP_TIMEOUT, warmUp } from '../../test/warm';
import { defaultSocketLimits } from './realtime';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: Json[];
  const?: Json;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  format?: string;
  default?: Json;
  minItems?: number;
  minLength?: number;
}

/** Schemas JSON Schema could not describe (their fields would get no cases): the test lists them. */
const undescribed = new Set<string>();

/** The input side of a zod schema as JSON Schema (transforms and refinements are opaque: `{}`). */
function jsonSchemaOf(schema: z.ZodType, where: string): JsonSchema {
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch (err) {
    undescribed.add(`${where}: ${(err as Error).message}`);
    return {};
  }
}

const HUGE = 'x'.repeat(1_000_000); // 1 MB: above the body limit (256 KB), refused as a whole
const LONG_BODY_TEXT = 'x'.repeat(100_000); // within the body limit: the schema must refuse it
const LONG = 'x'.repeat(20_000); // for a URL
const NUL = 'a\u0000b';
const deep = (levels: number): Json => {
  let v: Json = 1;
  for (let i = 0; i < levels; i++) v = [v];
  return v;
};
const deepObject = (levels: number): Json => {
  let v: Json = 1;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
};

const typeOf = (s: JsonSchema): string | undefined => {
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null');
  if (s.type) return s.type;
  const branch = s.anyOf?.[0] ?? s.oneOf?.[0];
  return branch ? typeOf(branch) : undefined;
};

/**
 * A plausible value for a field (required fields only), so a case differs from a valid input only
 * where it means to and reaches what lies behind the schema.
 */
function sample(s: JsonSchema): Json {
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0]!;
  if (s.default !== undefined) return s.default;
  switch (typeOf(s)) {
    case 'string':
      if (s.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      if (s.format === 'date-time') return new Date(Date.now() + 3_600_000).toISOString();
      return `sample${'x'.repeat(Math.max(0, (s.minLength ?? 0) - 6))}`;
    case 'integer':
    case 'number':
      return Math.max(s.minimum ?? 1, Math.min(1, s.maximum ?? 1));
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, (_, i) => {
        const item = sample(s.items ?? {});
        return typeof item === 'string' ? `${item}${i}` : item;
      });
    case 'object':
      return Object.fromEntries(
        Object.entries(s.properties ?? {})
          .filter(([k]) => s.required?.includes(k))
          .map(([k, v]) => [k, sample(v)]),
      );
    default:
      return 'sample';
  }
}

/** Wrong values for one field of the given schema. */
function wrongValues(s: JsonSchema, where: 'body' | 'url'): Array<{ what: string; value: Json }> {
  const type = typeOf(s);
  const cases: Array<{ what: string; value: Json }> = [
    {
      what: 'wrong type',
      value: type === 'string' ? 12345 : type === 'object' ? 'text' : type === 'array' ? 'text' : 'text',
    },
    { what: 'NUL', value: NUL },
    { what: 'huge string', value: where === 'body' ? HUGE : LONG },
  ];
  if (where === 'body') cases.push({ what: 'long string (100 KB)', value: LONG_BODY_TEXT });
  if (type === 'integer' || type === 'number') {
    cases.push(
      { what: 'above int4', value: 2 ** 31 },
      { what: 'beyond a double', value: where === 'body' ? 1e308 : '1e400' },
      { what: 'below the minimum', value: (s.minimum ?? 0) - 1 },
      { what: 'fractional', value: 1.5 },
    );
  }
  if (where === 'body') cases.push({ what: 'nested 1,000 deep', value: deep(1000) });
  if (type === 'boolean' && where === 'body') cases.push({ what: 'string for boolean', value: 'true' });
  return cases;
}

interface RouteCase {
  what: string;
  params: Record<string, string>;
  query: Record<string, string>;
  body: Json | undefined;
}

/** Cases for one route: each changes one thing of an otherwise plausible request. */
function routeCases(endpoint: EndpointSpec): RouteCase[] {
  const where = `${endpoint.method} ${endpoint.path}`;
  const params = jsonSchemaOf(endpoint.params ?? z.object({}), `${where} params`);
  const query = jsonSchemaOf(endpoint.query ?? z.object({}), `${where} query`);
  const body = endpoint.body ? jsonSchemaOf(endpoint.body, `${where} body`) : null;
  const str = (v: Json) => (typeof v === 'string' ? v : JSON.stringify(v));
  const baseParams = Object.fromEntries(Object.entries(params.properties ?? {}).map(([k, v]) => [k, str(sample(v))]));
  const baseBody = body ? sample(body) : undefined;
  const base = (): RouteCase => ({ what: '', params: { ...baseParams }, query: {}, body: structuredClone(baseBody) });
  const cases: RouteCase[] = [];

  for (const [name, field] of Object.entries(params.properties ?? {})) {
    for (const { what, value } of wrongValues(field, 'url')) {
      cases.push({ ...base(), what: `param ${name}: ${what}`, params: { ...baseParams, [name]: str(value) } });
    }
  }
  for (const [name, field] of Object.entries(query.properties ?? {})) {
    for (const { what, value } of wrongValues(field, 'url')) {
      cases.push({ ...base(), what: `query ${name}: ${what}`, query: { [name]: str(value) } });
    }
  }
  if (body) {
    for (const [what, value] of [
      ['body: a string', 'text'],
      ['body: a number', 42],
      ['body: null', null],
      ['body: an array', []],
      ['body: nested 1,000 deep', deepObject(1000)],
    ] as Array<[string, Json]>) {
      cases.push({ ...base(), what, body: value });
    }
    const fields = Object.entries(body.properties ?? {});
    if (fields.length === 0 && typeOf(body) !== 'object') {
      for (const { what, value } of wrongValues(body, 'body'))
        cases.push({ ...base(), what: `body: ${what}`, body: value });
    }
    for (const [name, field] of fields) {
      if (body.required?.includes(name)) {
        const missing = base();
        delete (missing.body as Record<string, Json>)[name];
        cases.push({ ...missing, what: `body ${name}: missing` });
      }
      for (const { what, value } of wrongValues(field, 'body')) {
        const c = base();
        (c.body as Record<string, Json>)[name] = value;
        cases.push({ ...c, what: `body ${name}: ${what}` });
      }
    }
  }
  return cases;
}

const STACK = /\bat [\w$.<>]+ \(|node_modules|\.ts:\d+|\.js:\d+:\d+/;

let t: TestApp;
let url: string;
let admin: TestUser;
const queries = new Map<string, Record<string, string>>();

/** The rows of a query (both drivers answer `{ rows }`). */
async function rowsOf<R>(query: SQL): Promise<R[]> {
  const result = (await t.database.db.execute(query)) as unknown as { rows: R[] };
  return result.rows;
}

/** Every table's row count, and every balance and ledger row: what bad input must not change. */
async function databaseState(): Promise<unknown> {
  const tables = await rowsOf<{ name: string }>(
    sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = await rowsOf<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${sql.identifier(name)}`);
    counts[name] = row!.n;
  }
  expect(Object.keys(counts)).toEqual(expect.arrayContaining(['users', 'ledger', 'orders']));
  const balances = await rowsOf(sql`SELECT id, role, points, gems, points_debt, excluded FROM users ORDER BY id`);
  const ledgerRows = await rowsOf(sql`SELECT * FROM ledger ORDER BY id`);
  return { counts, balances, ledgerRows };
}

beforeAll(warmUp, WARM_UP_TIMEOUT);
beforeAll(async () => {
  t = await buildTestApp({
    env: { RATE_LIMIT_PER_MINUTE: '10000000' },
    socketLimits: {
      ...defaultSocketLimits,
      socketCallsPerSecond: 10_000,
      socketBurst: 10_000,
      userCallsPerSecond: 10_000,
      strikes: 1_000_000,
    },
  });
  url = await listen(t.app);
  admin = await t.signIn({ role: 'Admin', name: 'Fuzz Admin' });
  const player = await t.signIn({ name: 'Fuzz Player' });
  const sos = await t.call({
    method: 'POST',
    url: '/api/SplitOrStealGame/create',
    as: admin,
    body: { reward: 1, counterInSeconds: 60, isPrivate: false },
  });
  queries.set('/SplitOrSteal', { gameid: sos.json().gameId as string });
  const dond = await t.call({
    method: 'POST',
    url: '/api/DealOrNoDeal/create',
    as: admin,
    body: { playerUserId: player.user.id, reward: 0, isPrivate: false, Amounts: [...DEFAULT_AMOUNTS] },
  });
  queries.set('/DealOrNoDeal', { gameid: dond.json().gameId as string });
  const battle = await t.call({
    method: 'POST',
    url: '/api/admin/battles',
    as: admin,
    body: {
      title: 'Fuzz battle',
      size: 4,
      siteId: null,
      minWager: null,
      subsOnly: false,
      registrationMinutes: 30,
      prize: { kind: 'points', points: '10' },
    },
  });
  queries.set('/Battle', { gameid: battle.json<{ id: string }>().id });
});
afterAll(async () => {
  await t?.close();
});

/**
 * The routes in a few parts, each its own test: a part stays well within a test's limit on a
 * starved CI machine (docs/conventions.md#timeouts), and a failure names its part.
 */
const PARTS = 4;
let sentInAll = 0;

describe('generated bad input on every route', () => {
  it.for(Array.from({ length: PARTS }, (_, i) => i))(
    'is refused with a 4xx and a message, never a 5xx or a stack trace, and changes nothing (part %i)',
    async (part) => {
      const before = await databaseState();
      const routes = t.app.routeTable
        .filter((r) => r.url.toLowerCase().startsWith('/api/') && r.method !== 'HEAD' && r.config?.endpoint)
        .filter((_, index) => index % PARTS === part);
      const wrong: string[] = [];
      let sent = 0;
      for (const r of routes) {
        const endpoint = r.config!.endpoint!;
        for (const c of routeCases(endpoint)) {
          // A case the schemas accept may be no bad input (a fraction where fractions are fine):
          // skipped, except what is bad whatever the schema says (NUL, 1 MB of text) and numbers
          // beyond what the database holds, which go through and must still not fail.
          const accepted =
            (endpoint.params?.safeParse(c.params).success ?? true) &&
            (endpoint.query?.safeParse(c.query).success ?? true) &&
            (endpoint.body?.safeParse(c.body).success ?? true);
          const alwaysBad = /NUL|huge string|long string/.test(c.what);
          const beyondDatabase = /above int4|beyond a double/.test(c.what);
          if (accepted && !alwaysBad && !beyondDatabase) continue;
          const target =
            endpoint.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(c.params[name] ?? '1')) +
            (Object.keys(c.query).length ? `?${new URLSearchParams(c.query).toString()}` : '');
          const res = await t.call({
            method: endpoint.method,
            url: target,
            as: admin,
            ...(endpoint.body ? { body: c.body } : {}),
          });
          sent += 1;
          const label = `${endpoint.method} ${endpoint.path} ${c.what}: ${res.statusCode}`;
          if (res.statusCode >= 500) wrong.push(`${label} ${res.body.slice(0, 200)}`);
          else if (STACK.test(res.body)) wrong.push(`${label} shows a stack trace`);
          else if (res.statusCode < 400 && (!accepted || alwaysBad)) wrong.push(`${label} accepted`);
        }
      }
      expect(wrong).toEqual([]);
      expect([...undescribed]).toEqual([]);
      expect(sent).toBeGreaterThan(100);
      sentInAll += sent;
      expect(await databaseState()).toEqual(before);
    },
  );

  it('sent them all', () => {
    expect(sentInAll).toBeGreaterThan(500);
  });
});

const hubsDir = fileURLToPath(new URL('../../../../packages/common/src/hubs', import.meta.url));

async function definedHubs(): Promise<HubSpec[]> {
  const hubs: HubSpec[] = [];
  for (const file of readdirSync(hubsDir).filter((f) => f.endsWith('.ts'))) {
    const exported = (await import(pathToFileURL(path.join(hubsDir, file)).href)) as Record<string, unknown>;
    for (const value of Object.values(exported)) {
      if (value && typeof value === 'object' && 'namespace' in value && 'calls' in value) hubs.push(value as HubSpec);
    }
  }
  return hubs;
}

describe('generated bad payloads on every hub call', () => {
  it('are answered { ok: false } with a message, never a system error, and change nothing', async () => {
    const before = await databaseState();
    const wrong: string[] = [];
    let sent = 0;
    // Under the frame limit: a larger frame closes the connection (plugins/hub-limits.test.ts).
    const big = 'x'.repeat(HUB_MAX_PAYLOAD_BYTES - 512);
    for (const hub of await definedHubs()) {
      const query = hub.query.safeParse({}).success ? {} : queries.get(hub.namespace);
      expect(query, `${hub.namespace} needs a handshake query`).toBeDefined();
      const client = await new HubClient(url, hub, { query: query!, cookie: admin.cookie }).connected();
      try {
        for (const [name, spec] of Object.entries(hub.calls)) {
          const schema = jsonSchemaOf(spec.input, `${hub.namespace} ${name}`);
          const payloads: Array<[string, unknown]> = [
            ['a number', 2 ** 31],
            ['a string', 'text'],
            ['NUL', NUL],
            ['a big string', big],
            ['an object', { a: 1 }],
            ['nested 1,000 deep', deep(1000)],
            ['beyond a double', 1e308],
            ['an object with NUL in a key', { 'a\u0000': 1 }],
          ];
          for (const [key, field] of Object.entries(schema.properties ?? {})) {
            const valid = sample(schema) as Record<string, Json>;
            for (const { what, value } of wrongValues(field, 'body').filter((w) => !/huge|long/.test(w.what))) {
              payloads.push([`${key}: ${what}`, { ...valid, [key]: value }]);
            }
          }
          for (const [what, payload] of payloads) {
            const alwaysBad = /NUL/.test(what);
            if (spec.input.safeParse(payload).success && !alwaysBad) continue; // not bad input for this call
            const result = await client.call(name, payload);
            sent += 1;
            const label = `${hub.namespace} ${name} ${what}`;
            if (result.ok) wrong.push(`${label}: accepted`);
            else if (result.error === messages.systemError) wrong.push(`${label}: system error`);
            else if (STACK.test(result.error)) wrong.push(`${label}: stack trace`);
          }
        }
      } finally {
        client.close();
      }
    }
    expect(wrong).toEqual([]);
    expect([...undescribed]).toEqual([]);
    expect(sent).toBeGreaterThan(50);
    expect(await databaseState()).toEqual(before);
  });
});
