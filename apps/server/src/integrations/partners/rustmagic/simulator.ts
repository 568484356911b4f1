/**
 * RustMagic simulator: `GET /dev/partners/rustmagic/api/affiliates-data/users?fromTime=&toTime=`
 * (epoch seconds) with `x-api-key`. Answers the `{data: [{…, board}]}` variant, `board` being the
 * name of the account's board a row belongs to: our players under the configured board, and a
 * player who left our code listed under the account's other board, as the real answer lists every board.
 */
import type { SiteId } from '@kickback/common/http/leaderboards';
import { SIMULATED_RUSTMAGIC_BOARD } from '../../../config';
import { avatarPath, cents, dateParam, unauthorized, type SimulatorContext } from '../simulator/common';

export function rustMagicSimulator(ctx: SimulatorContext, site: SiteId): void {
  ctx.app.get('/dev/partners/rustmagic/api/affiliates-data/users', async (request, reply) => {
    const key = ctx.keyFor(site);
    if (!key || request.headers['x-api-key'] !== key) return unauthorized(reply);
    const q = request.query as Record<string, unknown>;
    const from = dateParam(q.fromTime, true);
    const to = dateParam(q.toTime, true);
    if (!from || !to || to <= from) return reply.status(400).send({ message: 'Invalid time range' });
    const origin = ctx.app.config.publicOrigin;
    const access = ctx.app.config.partners[site];
    const ours = (access.mode === 'simulator' ? access.board : undefined) ?? SIMULATED_RUSTMAGIC_BOARD;
    return {
      data: ctx.figures(site, from, to, ctx.app.clock.now()).map((f) => {
        const avatar = avatarPath(f.player);
        return {
          id: f.player.id,
          username: ctx.nameOf(f.player),
          avatar: avatar ? origin + avatar : null,
          wagered: cents(f.wagered),
          board: f.onCode ? ours : 'weekly-race',
        };
      }),
    };
  });
}
