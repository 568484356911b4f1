/**
 * Kick's webhook public key: asked for with the app token, retried with pauses when Kick fails,
 * and when none can be had the failure is loud — an error in the log and a "down" state with the
 * reason on the Integrations page — with the next try further off each time.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { loadConfig } from '../../config';
import { ManualClock } from '../../lib/clock';
import { IntegrationStatus } from '../status';
import { KickApi } from './api';
import { createWebhookKeyring } from './webhook-keys';

const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' });

function setup(answers: Array<'fail' | 'ok'>) {
  const clock = new ManualClock('2026-03-04T12:00:00Z');
  const calls: Array<{ url: string; auth: string | null }> = [];
  const http: typeof fetch = async (input, init) => {
    const url = String(input);
    if (url.endsWith('/oauth/token')) return Response.json({ access_token: 'app-token', expires_in: 3600 });
    calls.push({ url, auth: new Headers(init?.headers).get('authorization') });
    const answer = answers.shift() ?? 'fail';
    if (answer === 'fail') return new Response('upstream error', { status: 503 });
    return Response.json({ data: { public_key: pem }, message: 'OK' });
  };
  const config = loadConfig({ KICK_CLIENT_ID: 'id', KICK_CLIENT_SECRET: 'secret', KICK_BROADCASTER_USER_ID: '42' });
  const api = new KickApi({
    apiUrl: config.kick.apiUrl,
    oauthUrl: config.kick.oauthUrl,
    app: config.kick.app,
    http,
    clock,
  });
  const lines: Array<{ level: number; msg: string }> = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const status = new IntegrationStatus(clock);
  const keyring = createWebhookKeyring(config.kick, api, clock, log, { status, pausesMs: [1, 1] });
  return { clock, calls, keyring, lines, status };
}

describe('Kick webhook public key', () => {
  it('is fetched with the app token, retrying a failing Kick before giving up', async () => {
    const { calls, keyring, status } = setup(['fail', 'fail', 'ok']);
    expect(await keyring.keys()).toHaveLength(1);
    expect(calls).toHaveLength(3);
    expect(calls.every((c) => c.url === 'https://api.kick.com/public/v1/public-key')).toBe(true);
    expect(calls.every((c) => c.auth === 'Bearer app-token')).toBe(true);
    expect(status.get('kick.publicKey')).toMatchObject({ down: false, lastSuccessAt: expect.any(Date) });
  });

  it('says so loudly when none can be had, and tries again later with a growing gap', async () => {
    const { calls, clock, keyring, lines, status } = setup([]);
    expect(await keyring.keys()).toEqual([]);
    expect(calls).toHaveLength(3);
    const error = lines.find((l) => l.msg.startsWith('no Kick webhook public key'));
    expect(error).toMatchObject({ level: 50 });
    const state = status.get('kick.publicKey');
    expect(state).toMatchObject({ down: true, lastFailure: 'Kick public key: public key: Kick answered 503' });
    expect(state.nextAttemptAt?.toISOString()).toBe('2026-03-04T12:00:30.000Z');

    await keyring.keys(); // too soon: no new attempt
    expect(calls).toHaveLength(3);
    clock.advance(30_000);
    await keyring.keys();
    expect(calls).toHaveLength(6);
    expect(status.get('kick.publicKey').nextAttemptAt?.toISOString()).toBe('2026-03-04T12:01:30.000Z'); // 60 s later
  });
});
