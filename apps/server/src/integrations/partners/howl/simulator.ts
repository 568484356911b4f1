/**
 * Howl.gg simulator: `GET /dev/partners/howl/api/user/affiliate/lb?from=&to=&limit=` with the raw
 * key in `Authorization`.
 */
import type { SiteId } from '@kickback/common/http/leaderboards';
import { avatarPath, cents, dateParam, unauthorized, type SimulatorContext } from '../simulator/common';
import { simFigures } from '../simulator/model';

export function howlSimulator(ctx: SimulatorContext, site: SiteId): void {
  ctx.app.get('/dev/partners/howl/api/user/affiliate/lb', async (request, reply) => {
    const key = ctx.keyFor(site);
    if (!key || request.headers.authorization !== key)
      return unauthorized(reply, { success: false, error: 'Unauthorized' });
    const q = request.query as Record<string, unknown>;
    const from = dateParam(q.from);
    const to = dateParam(q.to);
    if (!from || !to || to <= from) return reply.status(400).send({ success: false, error: 'Invalid range' });
    const limit = Math.min(1000, Math.max(1, Number(q.limit) || 100));
    const origin = ctx.app.config.publicOrigin;
    const data = simFigures(site, from, to, ctx.app.clock.now())
      .filter((f) => f.onCode)
      .sort((a, b) => b.wagered - a.wagered)
      .slice(0, limit)
      .map((f) => {
        const avatar = avatarPath(f.player);
        return {
          userId: f.player.id,
          name: f.player.name,
          avatar: avatar ? origin + avatar : null,
          wageredUSD: cents(f.wagered),
        };
      });
    return { success: true, data };
  });
}
