/**
 * A refusal thrown with its catalogue key is answered in the request's language, its field's
 * message with it (docs/features/languages.md#server-messages); one thrown in plain English stays
 * English; an unexpected error's "System error." is translated too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badRequest } from '../lib/errors';
import { said } from '../lib/i18n';
import { buildTestApp, type TestApp } from '../../test/app';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    routes: (app) => {
      const open = { config: { access: 'public' as const } };
      app.get('/api/probe/said', open, async () => {
        throw badRequest(said('store:soldOut'), 'productId');
      });
      app.get('/api/probe/english', open, async () => {
        throw badRequest('Only in English.', 'name');
      });
      app.get('/api/probe/crash', open, async () => {
        throw new Error('boom');
      });
    },
  });
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, language: string) => t.call({ url, headers: { 'accept-language': language } });

describe('a refusal in the request’s language', () => {
  it('says the toast and the field in it, English byte for byte', async () => {
    expect((await get('/api/probe/said', 'en-US')).json()).toEqual({
      message: 'This product is sold out.',
      fields: [{ path: 'productId', message: 'This product is sold out.' }],
    });
    expect((await get('/api/probe/said', 'es-AR')).json()).toEqual({
      message: 'Este producto está agotado.',
      fields: [{ path: 'productId', message: 'Este producto está agotado.' }],
    });
  });

  it('leaves a text not yet in the catalogues in English', async () => {
    expect((await get('/api/probe/english', 'pt-BR')).json().message).toBe('Only in English.');
  });

  it('translates the system error', async () => {
    const res = await get('/api/probe/crash', 'pt-BR');
    expect(res.statusCode).toBe(500);
    expect(res.json().message).toBe('Erro no sistema.');
  });
});
