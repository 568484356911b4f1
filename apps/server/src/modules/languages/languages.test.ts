/**
 * Languages (docs/features/languages.md): a viewer's own choice on their account (in the ping), the
 * admin's settings (audited, in `/api/site`, held in memory), the catalogues for the translator
 * page, and the language an answer speaks: the user's, the cookie, the browser's, the site's.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, settings } from '../../db/schema/audit';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin' });
});
afterAll(async () => {
  await t.close();
});

const SETTINGS = '/api/admin/site/languages';
const defaults = { siteDefault: 'en', followBrowser: true, chat: 'en', chatAliases: false };
const putSettings = (body: Record<string, unknown>) => t.call({ method: 'PUT', url: SETTINGS, as: admin, body });
/** A refusal any caller can meet: a signed-out call of a signed-in route. */
const refusal = (headers: Record<string, string> = {}) =>
  t.call({ method: 'PUT', url: '/api/me/language', as: null, body: { language: 'es' }, headers });

describe('a viewer’s own language', () => {
  it('is null (follow the site) until chosen, then kept on the account and shown in the ping', async () => {
    const viewer = await t.signIn();
    expect((await t.call({ url: '/api/User/ping', as: viewer })).json().language).toBeNull();
    const res = await t.call({ method: 'PUT', url: '/api/me/language', as: viewer, body: { language: 'pt-BR' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Idioma salvo.', language: 'pt-BR' });
    expect((await t.reload(viewer.user.id)).language).toBe('pt-BR');
    expect((await t.call({ url: '/api/User/ping', as: viewer })).json().language).toBe('pt-BR');
    const back = await t.call({ method: 'PUT', url: '/api/me/language', as: viewer, body: { language: null } });
    expect(back.json()).toEqual({ message: 'Language saved.', language: null });
    expect((await t.reload(viewer.user.id)).language).toBeNull();
  });

  it('refuses a language the site does not speak (400) and a signed-out call (401)', async () => {
    const viewer = await t.signIn();
    const bad = await t.call({ method: 'PUT', url: '/api/me/language', as: viewer, body: { language: 'fr' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      message: 'Pick a language: en, es, pt-BR.',
      fields: [{ path: 'language' }],
    });
    expect((await refusal()).statusCode).toBe(401);
  });

  it('the database refuses a language it does not know, whoever writes it', async () => {
    const viewer = await t.signIn();
    await expect(t.database.query(`UPDATE users SET language = 'fr' WHERE id = '${viewer.user.id}'`)).rejects.toThrow(
      /users_language_known/,
    );
  });
});

describe('the language an answer speaks', () => {
  beforeEach(async () => {
    expect((await putSettings(defaults)).statusCode).toBe(200);
  });

  it('English by default, byte for byte', async () => {
    expect((await refusal()).json()).toEqual({ message: 'Sign in required.' });
  });

  it('the browser’s language when the site follows browsers, not when it does not', async () => {
    expect((await refusal({ 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' })).json().message).toBe(
      'Tienes que iniciar sesión.',
    );
    expect((await refusal({ 'accept-language': 'fr-FR, pt;q=0.8' })).json().message).toBe(
      'Você precisa entrar na sua conta.',
    );
    await putSettings({ ...defaults, followBrowser: false, siteDefault: 'pt-BR' });
    expect((await refusal({ 'accept-language': 'es-MX' })).json().message).toBe('Você precisa entrar na sua conta.');
  });

  it('the cookie before the browser, the user’s own choice before both', async () => {
    expect((await refusal({ cookie: 'kb_lang=pt-BR', 'accept-language': 'es' })).json().message).toBe(
      'Você precisa entrar na sua conta.',
    );
    expect((await refusal({ cookie: 'kb_lang=xx', 'accept-language': 'es' })).json().message).toBe(
      'Tienes que iniciar sesión.',
    );
    const viewer = await t.signIn();
    await t.call({ method: 'PUT', url: '/api/me/language', as: viewer, body: { language: 'es' } });
    // A viewer's refusal: an admin-only read.
    const res = await t.call({
      url: SETTINGS,
      as: viewer,
      headers: { cookie: `${viewer.cookie}; kb_lang=pt-BR`, 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('No tienes permiso para hacer eso.');
  });
});

describe('the language settings', () => {
  it('start from the site file: English, following browsers, the bot in English, no localized commands', async () => {
    await t.database.query(`DELETE FROM settings WHERE key = 'languages'`);
    t.app.reads.invalidate('');
    const res = await t.call({ url: SETTINGS, as: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject(defaults);
    expect(res.json().aliases).toEqual(
      expect.arrayContaining([
        { locale: 'es', alias: 'apostar', command: 'bet' },
        { locale: 'pt-BR', alias: 'aposta', command: 'bet' },
        { locale: 'es', alias: 'puntos', command: 'points' },
        { locale: 'pt-BR', alias: 'pontos', command: 'points' },
      ]),
    );
    expect((await t.call({ url: '/api/site' })).json().language).toEqual({ default: 'en', followBrowser: true });
  });

  it('an admin changes them: audited, in /api/site at once, and in force for the next request', async () => {
    await t.call({ url: '/api/site' }); // cached now
    const before = (await t.call({ url: SETTINGS, as: admin })).json();
    const next = { siteDefault: 'es', followBrowser: false, chat: 'pt-BR', chatAliases: true };
    const res = await putSettings(next);
    expect(res.statusCode, res.body).toBe(200);
    // The admin has no language of their own and the site now speaks Spanish to everyone.
    expect(res.json().message).toBe('Configuración actualizada.');
    expect(res.json().settings).toMatchObject(next);
    expect((await t.call({ url: '/api/site' })).json().language).toEqual({ default: 'es', followBrowser: false });
    expect((await t.call({ url: SETTINGS, as: admin })).json()).toMatchObject(next);
    expect(t.app.languages).toEqual(next);
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'site.languages'))
      .orderBy(auditLog.createdAt);
    expect(audit.at(-1)).toMatchObject({
      actorUserId: admin.user.id,
      targetId: 'languages',
      before: { siteDefault: before.siteDefault, followBrowser: before.followBrowser, chat: before.chat },
      after: next,
    });
    // A signed-out visitor with no cookie now gets the site's Spanish whatever the browser says.
    expect((await refusal({ 'accept-language': 'en-US' })).json().message).toBe('Tienes que iniciar sesión.');
    await putSettings(defaults);
  });

  it('a change made by another process reaches this one when its invalidation does', async () => {
    const next = { siteDefault: 'pt-BR', followBrowser: false, chat: 'es', chatAliases: true };
    await t.database.db
      .insert(settings)
      .values({ key: 'languages', value: next })
      .onConflictDoUpdate({ target: settings.key, set: { value: next } });
    t.app.reads.invalidateLocally('languages'); // what the Redis sync does on the other's announcement
    await expect.poll(() => t.app.languages).toEqual(next);
    expect((await refusal()).json().message).toBe('Você precisa entrar na sua conta.');
    await putSettings(defaults);
  });

  it('refuses bad settings with a message per field (400), and is for admins only (401/403)', async () => {
    const bad = await putSettings({ siteDefault: 'fr', followBrowser: 'yes', chat: 'es', chatAliases: true });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe("Pick the site's language: en, es, pt-BR.");
    expect(bad.json().fields.map((f: { path: string }) => f.path)).toEqual(['siteDefault', 'followBrowser']);
    const viewer = await t.signIn();
    expect((await t.call({ url: SETTINGS, as: viewer })).statusCode).toBe(403);
    expect((await t.call({ method: 'PUT', url: SETTINGS, as: viewer, body: defaults })).statusCode).toBe(403);
    expect((await t.call({ url: SETTINGS, as: null })).statusCode).toBe(401);
    expect((await t.call({ url: '/api/admin/translations', as: viewer })).statusCode).toBe(403);
  });
});

describe('the translations read', () => {
  it('gives every namespace of the server’s catalogues in the three languages', async () => {
    const res = await t.call({ url: '/api/admin/translations', as: admin });
    expect(res.statusCode).toBe(200);
    const { namespaces } = res.json();
    expect(namespaces.common.en.signInRequired).toBe('Sign in required.');
    expect(namespaces.common.es.signInRequired).toBe('Tienes que iniciar sesión.');
    expect(Object.keys(namespaces.common['pt-BR'])).toEqual(Object.keys(namespaces.common.en));
  });
});
