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
import { simPlayers } from './model';
import type { SimulatorContext } from './common';

/** `POST /dev/partners/control/rename`: what a player does on the partner site to their name. */
const renameBody = z.object({
  site: z.number().int(),
  playerId: z.string().min(1),
  name: z.string().trim().min(1).max(64),
});

export async function partnerSimulators(app: FastifyInstance): Promise<void> {
  const partners = app.config.partners;
  // Renames live with this app (tests and the demo each have their own partner world).
  const renamed = new Map<string, string>();
  const ctx: SimulatorContext = {
    app,
    base: `${app.config.publicUrl}/dev/partners`,
    keyFor: (site: SiteId) => {
      const access = partners[site];
      return access.mode === 'simulator' ? access.key : null;
    },
    nameOf: (player) => renamed.get(`${player.site}:${player.id}`) ?? player.name,
  };

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
