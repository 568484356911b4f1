/**
 * Mounts the partner simulators under `/dev/partners/…` (never in production). Each speaks its
 * partner's protocol — paths, auth headers, answer shapes — so the real adapters run against them
 * under `npm start` and in tests, through `app.http`'s in-process loopback.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { siteIds, type SiteId } from '@kickback/common/http/leaderboards';
import { avatarSvg } from '../../steam/dev-provider';
import { casesSimulator } from '../cases/simulator';
import { clashSimulator } from '../clash/simulator';
import { csgoBigSimulator } from '../csgobig/simulator';
import { howlSimulator } from '../howl/simulator';
import { roobetSimulator } from '../roobet/simulator';
import { rustMagicSimulator } from '../rustmagic/simulator';
import { BotProtection, botProtectionRoutes } from './bot-protection';
import { simFigures, simPlayers, type SimPlayer } from './model';
import type { SimulatorContext } from './common';

/** `POST /dev/partners/control/rename`: what a player does on the partner site to their name. */
const renameBody = z.object({
  site: z.number().int(),
  playerId: z.string().min(1),
  name: z.string().trim().min(1).max(64),
});

const betBody = z.object({
  site: z.number().int(),
  playerId: z.string().min(1),
  amount: z.number().positive().max(1_000_000),
});

export async function partnerSimulators(app: FastifyInstance): Promise<void> {
  const partners = app.config.partners;
  // Renames and extra bets live with this app (tests and the demo each have their own partner world).
  const renamed = new Map<string, string>();
  const bets = new Map<string, Array<{ at: number; amount: number }>>();
  const ctx: SimulatorContext = {
    app,
    base: `${app.config.publicUrl}/dev/partners`,
    keyFor: (site: SiteId) => {
      const access = partners[site];
      return access.mode === 'simulator' ? access.key : null;
    },
    botProtection: new BotProtection(),
    nameOf: (player) => renamed.get(`${player.site}:${player.id}`) ?? player.name,
    figures: (site, from, to, now) => {
      const until = Math.min(to.getTime(), now.getTime());
      const extraOf = (player: SimPlayer) =>
        (bets.get(`${site}:${player.id}`) ?? [])
          .filter((b) => b.at >= from.getTime() && b.at < until)
          .reduce((sum, b) => sum + b.amount, 0);
      const figures = simFigures(site, from, to, now).map((f) => {
        const extra = extraOf(f.player);
        return extra === 0 ? f : { ...f, wagered: f.wagered + extra, weighted: f.weighted + extra };
      });
      // A player whose only bets in the window are control bets is listed too.
      const listed = new Set(figures.map((f) => f.player.id));
      for (const player of simPlayers(site)) {
        const extra = listed.has(player.id) ? 0 : extraOf(player);
        if (extra > 0) figures.push({ player, wagered: extra, weighted: extra, favoriteGame: null, onCode: true });
      }
      return figures;
    },
  };
  botProtectionRoutes(app, ctx.botProtection);

  // A player renaming themselves on the partner site (e.g. to put a Kickback proof code in their
  // name): the next answers list the new name, so the real poller, parser and verifier see it.
  app.post('/dev/partners/control/rename', async (request, reply) => {
    const parsed = renameBody.safeParse(request.body);
    if (!parsed.success) return reply.status(400).send({ message: 'Expected {site, playerId, name}.' });
    const { site, playerId, name } = parsed.data;
    const player = (siteIds as readonly number[]).includes(site)
      ? simPlayers(site as SiteId).find((p) => p.id === playerId)
      : undefined;
    if (!player) return reply.status(404).send({ message: 'No such simulated player.' });
    renamed.set(`${player.site}:${player.id}`, name);
    return { message: `Player ${playerId} on site ${site} is now called ${name}.` };
  });

  // A player placing a bet now (amount in the site's units; counted in full, also on Roobet's
  // weighted wager): the next poll sees the wager grow, as after a real bet.
  app.post('/dev/partners/control/bet', async (request, reply) => {
    const parsed = betBody.safeParse(request.body);
    if (!parsed.success) return reply.status(400).send({ message: 'Expected {site, playerId, amount}.' });
    const { site, playerId, amount } = parsed.data;
    const player = (siteIds as readonly number[]).includes(site)
      ? simPlayers(site as SiteId).find((p) => p.id === playerId)
      : undefined;
    if (!player) return reply.status(404).send({ message: 'No such simulated player.' });
    const key = `${player.site}:${player.id}`;
    bets.set(key, [...(bets.get(key) ?? []), { at: app.clock.now().getTime(), amount: Math.round(amount * 100) }]);
    return { message: `Player ${playerId} on site ${site} bet ${amount}.` };
  });

  // The cast of a site (ids and current names), for the demo and tests.
  app.get('/dev/partners/control/players/:site', async (request, reply) => {
    const site = Number((request.params as { site: string }).site);
    if (!(siteIds as readonly number[]).includes(site)) return reply.status(404).send({ message: 'No such site.' });
    return simPlayers(site as SiteId).map((p) => ({ id: p.id, name: ctx.nameOf(p) }));
  });
  clashSimulator(ctx, 1, 'clash', 'array');
  clashSimulator(ctx, 2, 'royale', 'players');
  csgoBigSimulator(ctx, 3);
  howlSimulator(ctx, 4);
  rustMagicSimulator(ctx, 5);
  const roobet = partners[6];
  roobetSimulator(ctx, 6, roobet.mode === 'simulator' ? (roobet.affiliateId ?? null) : null);
  casesSimulator(ctx, 7);

  app.get('/dev/partners/avatar/:site/:file', async (request, reply) => {
    const { site, file } = request.params as { site: string; file: string };
    const id = file.replace(/\.svg$/, '');
    const player = simPlayers(Number(site) as SiteId).find((p) => p.id === id);
    if (!player) return reply.status(404).send('Not found');
    reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400');
    return avatarSvg(`7656119${player.id.padStart(10, '0')}`, player.name);
  });
}
