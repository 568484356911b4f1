/**
 * Mounts the partner simulators under `/dev/partners/…` (never in production). Each speaks its
 * partner's protocol — paths, auth headers, answer shapes — so the real adapters run against them
 * under `npm start` and in tests, through `app.http`'s in-process loopback.
 */
import type { FastifyInstance } from 'fastify';
import type { SiteId } from '@kickback/common/http/leaderboards';
import { avatarSvg } from '../../steam/dev-provider';
import { casesSimulator } from '../cases/simulator';
import { clashSimulator } from '../clash/simulator';
import { csgoBigSimulator } from '../csgobig/simulator';
import { howlSimulator } from '../howl/simulator';
import { roobetSimulator } from '../roobet/simulator';
import { rustMagicSimulator } from '../rustmagic/simulator';
import { BotProtection, botProtectionRoutes } from './bot-protection';
import { simPlayers } from './model';
import type { SimulatorContext } from './common';

export async function partnerSimulators(app: FastifyInstance): Promise<void> {
  const partners = app.config.partners;
  const ctx: SimulatorContext = {
    app,
    base: `${app.config.publicUrl}/dev/partners`,
    keyFor: (site: SiteId) => {
      const access = partners[site];
      return access.mode === 'simulator' ? access.key : null;
    },
    botProtection: new BotProtection(),
  };
  botProtectionRoutes(app, ctx.botProtection);
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
