/**
 * Cases.gg simulator: the Clash API family at `/dev/partners/cases`, amounts in cents, answering
 * the `{referralSummaries: […]}` variant; a since-date in the future is refused with 403 like the
 * real one.
 */
import type { SiteId } from '@kickback/common/http/leaderboards';
import { avatarPath, unauthorized, type SimulatorContext } from '../simulator/common';

export function casesSimulator(ctx: SimulatorContext, site: SiteId): void {
  ctx.app.get('/dev/partners/cases/affiliates/detailed-summary/v2/:date', async (request, reply) => {
    if (ctx.botProtection.challenged('cases', request, reply)) return reply;
    const key = ctx.keyFor(site);
    if (!key || request.headers.authorization !== `Bearer ${key}`) return unauthorized(reply);
    const { date } = request.params as { date: string };
    const now = ctx.app.clock.now();
    const since = new Date(`${date}T00:00:00Z`);
    if (Number.isNaN(since.getTime())) return reply.status(400).send({ message: 'Invalid date' });
    if (since > now) return reply.status(403).send({ message: 'Forbidden' });
    const origin = ctx.app.config.publicOrigin;
    return {
      referralSummaries: ctx
        .figures(site, since, now, now)
        .filter((f) => f.onCode)
        .map((f) => {
          const avatar = avatarPath(f.player);
          return {
            userId: f.player.id,
            username: ctx.nameOf(f.player),
            avatarUrl: avatar ? origin + avatar : null,
            wagered: f.wagered,
            deposited: Math.round(f.wagered * 0.15),
          };
        }),
    };
  });
}
