/**
 * The converted flows speak the reader's language (docs/features/languages.md#server-messages):
 * store purchases and their refusals (limit dates worded by Intl), the daily reward refusals,
 * sign-out; and the chat bot speaks the chat's language and takes the localized commands when
 * they are on (docs/features/languages.md#the-chat-bot). English stays as it was (the modules'
 * own tests hold it word for word).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../integrations/kick/chat-message';
import { products } from '../../db/schema/store';
import { goLiveText } from '../discord-roles/go-live';
import { buildTestApp, type TestApp, type TestUser } from '../../../test/app';
import { addProduct, givePoints } from '../../../test/economy';
import { chatMessage } from '../../../test/kick';
import { linkedChatter, openPrediction, repliesTo } from '../../../test/predictions';

let t: TestApp;
let admin: TestUser;
let kick = 7300;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.signIn({ role: 'Admin', name: 'Polyglot' });
});
afterAll(async () => {
  await t.close();
});

const order = (as: TestUser, productId: number, headers: Record<string, string> = {}) =>
  t.call({ method: 'POST', url: '/api/Order/OrderProduct', as, body: { productId }, headers });
const choose = async (as: TestUser, language: string | null) =>
  expect((await t.call({ method: 'PUT', url: '/api/me/language', as, body: { language } })).statusCode).toBe(200);
const languages = async (body: Record<string, unknown>) => {
  const res = await t.call({
    method: 'PUT',
    url: '/api/admin/site/languages',
    as: admin,
    body: { siteDefault: 'en', followBrowser: true, chat: 'en', chatAliases: false, ...body },
  });
  expect(res.statusCode, res.body).toBe(200);
};

describe('the store', () => {
  it('answers a purchase and its refusals in the buyer’s language', async () => {
    const buyer = await t.signIn();
    await givePoints(t, buyer.user.id, '10');
    const cheap = await addProduct(t, { name: 'Sticker', price: '1' });
    const dear = await addProduct(t, { name: 'Knife', price: '500' });
    await choose(buyer, 'es');
    const bought = await order(buyer, cheap.id);
    expect(bought.statusCode, bought.body).toBe(200);
    expect(bought.json().message).toBe('Compraste Sticker. Te lo entregamos pronto; puedes seguirlo en Mi actividad.');
    expect((await order(buyer, dear.id)).json().message).toBe('No te alcanzan los puntos para este producto.');
    await choose(buyer, 'pt-BR');
    expect((await order(buyer, dear.id)).json().message).toBe('Você não tem pontos suficientes para este produto.');
    await choose(buyer, null);
    expect((await order(buyer, dear.id)).json().message).toBe('You do not have enough points for this product.');
    expect((await order(buyer, 999_999, { 'accept-language': 'pt-BR' })).json().message).toBe(
      'Produto não encontrado.',
    );
  });

  it('a new choice holds from the next purchase, though an order reads a session snapshot', async () => {
    const buyer = await t.signIn();
    await givePoints(t, buyer.user.id, '10');
    const dear = await addProduct(t, { name: 'Gloves', price: '500' });
    // The order route may read the session from the short-lived cache: this call fills it.
    expect((await order(buyer, dear.id)).json().message).toBe('You do not have enough points for this product.');
    await choose(buyer, 'es');
    expect((await order(buyer, dear.id)).json().message).toBe('No te alcanzan los puntos para este producto.');
  });

  it('words a store limit and its date in the buyer’s language', async () => {
    const buyer = await t.signIn();
    await givePoints(t, buyer.user.id, '100');
    const weekly = await addProduct(t, { name: 'Weekly case', price: '1' });
    await t.database.db.update(products).set({ limitCount: 1, limitWindow: 'week' }).where(eq(products.id, weekly.id));
    const once = await addProduct(t, { name: 'Once case', price: '1' });
    await t.database.db.update(products).set({ limitCount: 1, limitWindow: 'ever' }).where(eq(products.id, once.id));
    expect((await order(buyer, weekly.id)).statusCode).toBe(200);
    expect((await order(buyer, once.id)).statusCode).toBe(200);
    await choose(buyer, 'pt-BR');
    expect((await order(buyer, weekly.id)).json().message).toBe(
      'Limite: 1 por semana — próxima compra: segunda-feira, 00:00 UTC.',
    );
    expect((await order(buyer, once.id)).json().message).toBe('Limite: 1 por pessoa — você já comprou.');
    await choose(buyer, 'es');
    expect((await order(buyer, weekly.id)).json().message).toBe(
      'Límite: 1 por semana. Podrás volver a comprarlo el lunes, 00:00 UTC.',
    );
    await choose(buyer, 'en');
    expect((await order(buyer, weekly.id)).json().message).toBe('Limit: 1 per week — next on Monday 00:00 UTC.');
  });
});

describe('the daily rewards', () => {
  it('refuses in the claimant’s language, and says so on the calendar', async () => {
    const viewer = await t.signIn();
    await choose(viewer, 'pt-BR');
    const res = await t.call({ method: 'POST', url: '/api/DailyReward/GetDailyRewardRoobet', as: viewer });
    expect(res.json().message).toBe('Vincule seu usuário da Roobet no seu perfil para resgatar esta recompensa.');
    const today = await t.call({ url: '/api/DailyReward/RoobetToday', as: viewer });
    expect(today.json()).toMatchObject({
      claimable: false,
      message: 'Vincule seu usuário da Roobet no seu perfil para resgatar esta recompensa.',
    });
    expect(
      (await t.call({ url: '/api/DailyReward/RoobetToday', headers: { cookie: 'kb_lang=es' } })).json(),
    ).toMatchObject({
      message: 'Primero inicia sesión.',
    });
  });
});

describe('signing out', () => {
  it('is said in the language of the account that signs out', async () => {
    const viewer = await t.signIn();
    await choose(viewer, 'es');
    const res = await t.call({ url: '/auth/signout', as: viewer });
    expect(res.json()).toEqual({ message: 'Sesión cerrada.' });
  });
});

describe('the Discord go-live post', () => {
  it('is written in the site’s default language, English as before', () => {
    const url = 'https://kick.com/vex';
    expect(goLiveText('Vex', 'Slots!', 'Slots & Casino', url)).toBe(
      `🔴 **Vex is live!** Slots!\nPlaying: Slots & Casino\n${url}`,
    );
    expect(goLiveText('Vex', 'Slots!', 'Slots & Casino', url, 'es')).toBe(
      `🔴 **¡Vex está en vivo!** Slots!\nJugando: Slots & Casino\n${url}`,
    );
    expect(goLiveText('Vex', null, null, url, 'pt-BR')).toBe(`🔴 **Vex está ao vivo!**\n${url}`);
  });
});

describe('the chat bot', () => {
  const say = async (content: string, who: { kickId: string; kickName: string }): Promise<string[]> => {
    const over: Partial<ChatMessage> = { kickUserId: who.kickId, kickUsername: who.kickName };
    const message = chatMessage(t, { ...over, content });
    await t.app.chat.process(message, 'simulator');
    return repliesTo(t, message.messageId);
  };

  it('answers in the chat language whatever the viewer chose on the site', async () => {
    const fan = await linkedChatter(t, String(++kick), { points: '12' });
    await choose(fan, 'es');
    await languages({ chat: 'pt-BR' });
    expect(await say('!points', fan)).toEqual([`@${fan.kickName} você tem 12.00 pontos.`]);
    expect(await say('!bet 1 5', fan)).toEqual([`@${fan.kickName} nenhuma previsão está aceitando apostas agora.`]);
    await languages({ chat: 'es' });
    expect(await say('!points', fan)).toEqual([`@${fan.kickName} tienes 12.00 puntos.`]);
    expect(await say('!verify', fan)).toEqual([
      `@${fan.kickName} escribe !verify seguido del código de tu perfil en Kickback.`,
    ]);
    expect(await say('!calls open', fan)).toEqual([
      `@${fan.kickName} solo el streamer o un moderador pueden abrir o cerrar los slot calls.`,
    ]);
    expect(await say('!enter', fan)).toEqual([
      `@${fan.kickName} ahora mismo no hay ninguna batalla con inscripciones abiertas.`,
    ]);
    await languages({ chat: 'en' });
    expect(await say('!points', fan)).toEqual([`@${fan.kickName} you have 12.00 points.`]);
  });

  it('takes !apostar, !aposta, !puntos and !pontos as the built-ins only while the admin has them on', async () => {
    const fan = await linkedChatter(t, String(++kick), { points: '1000' });
    await openPrediction(t, admin);
    await languages({ chat: 'es', chatAliases: false });
    expect(await say('!puntos', fan)).toEqual([]);
    expect(await say('!apostar 1 100', fan)).toEqual([]);
    await languages({ chat: 'es', chatAliases: true });
    expect(await say('!puntos', fan)).toEqual([`@${fan.kickName} tienes 1,000.00 puntos.`]);
    const [taken] = await say('!apostar 1 100', fan);
    expect(taken).toMatch(/^@kick\d+ apuesta registrada: 100 puntos a la opción 1\. Saldo: 900\.$/);
    await languages({ chat: 'pt-BR', chatAliases: true });
    expect(await say('!pontos', fan)).toEqual([`@${fan.kickName} você tem 900.00 pontos.`]);
    const [again] = await say('!aposta 2 100', fan);
    expect(again).toBe(`@${fan.kickName} você já apostou na opção 1: só uma resposta por previsão.`);
    await languages({});
  });
});
