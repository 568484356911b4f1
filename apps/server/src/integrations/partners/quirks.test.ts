/**
 * Partner quirks, with the real adapters (through the registry, as the poller builds them) against
 * the simulators: RustMagic's `board` is a board name and only ours counts; Clash's `let-me-in`
 * cookie and Cases' bot-protection page fail loudly — status and the first bytes of the page —
 * until PARTNER_HEADERS supplies what the partner wants.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { buildTestApp, type TestApp } from '../../../test/app';
import { warmUp, WARM_UP_TIMEOUT } from '../../../test/warm';
import { buildPartnerProviders } from './registry';
import { PartnerHttpError, type PartnerWindow } from './types';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});
beforeAll(warmUp, WARM_UP_TIMEOUT);

function lastWeek(now: Date): PartnerWindow {
  return { start: new Date(now.getTime() - 7 * 86_400_000), end: now, now };
}

async function protect(slug: 'clash' | 'cases', on: boolean) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/dev/partners/${slug}/bot-protection`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ on }),
  });
  expect(res.statusCode).toBe(200);
}

describe('configuration', () => {
  it('reads PARTNER_HEADERS per partner and RUSTMAGIC_BOARD, and names what is wrong', () => {
    const config = loadConfig({
      PARTNER_HEADERS:
        '{"clash":{"cookie":"let-me-in=1"},"cases":{"cookie":"cf_clearance=x","user-agent":"Mozilla/5.0"}}',
      RUSTMAGIC_API_KEY: 'k',
      RUSTMAGIC_BOARD: 'Kickback',
    });
    expect(config.partners[1]).toMatchObject({ mode: 'simulator', headers: { cookie: 'let-me-in=1' } });
    expect(config.partners[7]).toMatchObject({ headers: { cookie: 'cf_clearance=x', 'user-agent': 'Mozilla/5.0' } });
    expect(config.partners[5]).toMatchObject({ mode: 'partner', board: 'Kickback' });
    expect(config.partners[4]).not.toHaveProperty('headers');
    expect(() => loadConfig({ PARTNER_HEADERS: 'cookie=1' })).toThrow(/PARTNER_HEADERS: must be JSON/);
    expect(() => loadConfig({ PARTNER_HEADERS: '{"stake":{"a":"b"}}' })).toThrow(
      /PARTNER_HEADERS: unknown partner stake \(partners are clash, royale/,
    );
    expect(() => loadConfig({ PARTNER_HEADERS: '{"clash":{"bad name":"b"}}' })).toThrow(/header names/);
    expect(() => loadConfig({ PARTNER_HEADERS: '{"clash":{"a":"b\\nc"}}' })).toThrow(/one line/);
  });
});

describe('RustMagic boards', () => {
  it('the simulator names each row’s board; the adapter keeps only the configured board’s rows', async () => {
    t = await buildTestApp();
    const now = t.clock.now();
    const w = lastWeek(now);
    const raw = await t.app.inject({
      url: `/dev/partners/rustmagic/api/affiliates-data/users?fromTime=${Math.floor(w.start.getTime() / 1000)}&toTime=${Math.floor(now.getTime() / 1000)}`,
      headers: { 'x-api-key': 'dev-simulator-key' },
    });
    const rows = raw.json<{ data: Array<{ username: string; board: unknown }> }>().data;
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(['kickback', 'weekly-race']).toContain(r.board);

    const provider = buildPartnerProviders(t.config.partners, t.app.http)[5];
    const standings = await provider!.adapter.fetchStandings(w);
    expect(standings.map((s) => s.username)).toEqual(rows.filter((r) => r.board === 'kickback').map((r) => r.username));
  });
});

describe('bot protection in front of Clash and Cases', () => {
  it('fails with the status and the first bytes of the challenge page, then passes with PARTNER_HEADERS', async () => {
    t = await buildTestApp();
    const w = lastWeek(t.clock.now());
    await protect('cases', true);
    await protect('clash', true);
    const plain = buildPartnerProviders(t.config.partners, t.app.http);
    for (const site of [7, 1] as const) {
      const error = await plain[site]!.adapter.fetchStandings(w).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(PartnerHttpError);
      expect((error as PartnerHttpError).status).toBe(403);
      expect((error as Error).message).toMatch(
        /^HTTP 403 — a bot-protection page, not the API: set this partner's cookie or headers in PARTNER_HEADERS: <!DOCTYPE html><html lang="en-US"><head><title>Just a moment\.\.\.<\/title>/,
      );
      expect((error as Error).message.length).toBeLessThan(320);
    }

    const configured = loadConfig({
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k === 'NODE_ENV')),
      NODE_ENV: 'test',
      PUBLIC_URL: t.config.publicUrl,
      PARTNER_HEADERS: '{"clash":{"cookie":"let-me-in=1"},"cases":{"cookie":"cf_clearance=abc"}}',
    });
    const withCookies = buildPartnerProviders(configured.partners, t.app.http);
    expect(Array.isArray(await withCookies[7]!.adapter.fetchStandings(w))).toBe(true);
    expect(Array.isArray(await withCookies[1]!.adapter.fetchStandings(w))).toBe(true);

    const bad = await t.app.inject({
      method: 'POST',
      url: '/dev/partners/howl/bot-protection',
      headers: { 'content-type': 'application/json' },
      payload: '{"on":true}',
    });
    expect(bad.statusCode).toBe(404);
  });
});
