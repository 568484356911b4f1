/**
 * Clash.gg simulator (`/dev/partners/clash` and the second account `/dev/partners/royale`):
 * `GET …/affiliates/detailed-summary/v2/{YYYY-MM-DD}` with the Bearer key, figures since that
 * day in gem cents. Site 1 answers the plain array; royale answers the `{players: […]}` variant.
 */
import type { SiteId } from '@kickback/common/http/leaderboards';
import { avatarPath, unauthorized, type SimulatorContext } from '../simulator/common';

export function clashSimulator(ctx: SimulatorContext, site: SiteId, slug: string, variant: 'array' | 'players'): void {
  ctx.app.get(`/dev/partners/${slug}/affiliates/detailed-summary/v2/:date`, async (request, reply) => {
    if (ctx.botProtection.challenged('clash', request, reply)) return reply;
    const key = ctx.keyFor(site);
    if (!key || request.headers.authorization !== `Bearer ${key}`) return unauthorized(reply);
    const { date } = request.params as { date: string };
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return reply.status(400).send({ message: 'Invalid date' });
    const now = ctx.app.clock.now();
    const since = new Date(`${date}T00:00:00Z`);
    if (since > now) return reply.status(403).send({ message: 'Forbidden' });
    const origin = ctx.app.config.publicOrigin;
    const rows = ctx
      .figures(site, since, now, now)
      .filter((f) => f.onCode)
      .map((f) => {
        const avatar = avatarPath(f.player);
        const common = { id: Number(f.player.id), name: ctx.nameOf(f.player), avatar: avatar ? origin + avatar : null };
        return variant === 'players'
          ? { ...common, xp: f.wagered, deposits: Math.round(f.wagered * 0.2) }
          : {
              ...common,
              wagered: f.wagered,
              deposited: Math.round(f.wagered * 0.2),
              earned: Math.round(f.wagered * 0.004),
            };
      });
    return variant === 'players' ? { players: rows } : rows;
  });
}
