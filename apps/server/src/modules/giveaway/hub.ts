/**
 * The `/KickGiveAway` hub (docs/product.md#live-calls): every call is for the staff (Moderators and Admins:
 * they run giveaways), checked on the server against the session as of the call (a sign-out or
 * demotion applies at once) — by the hub layer from each call's declared access, and here again.
 * Anyone may open the socket, but only a staff socket is in the audience that the events go to.
 */
import { canModerate } from '@kickback/common/access';
import type { GiveawayHub } from '@kickback/common/hubs/giveaway';
import type { GiveawayOverlayHub } from '@kickback/common/hubs/giveaway-overlay';
import type { UserRow } from '../../db/schema/users';
import { forbidden, unauthorized } from '../../lib/errors';
import type { HubContext, HubHandlers } from '../../plugins/realtime';
import { OVERLAY_ROOM, type GiveawayService } from './service';

async function staffOf(ctx: HubContext<GiveawayHub>): Promise<UserRow> {
  const user = await ctx.currentUser();
  if (!user) throw unauthorized();
  if (!canModerate(user.role)) throw forbidden();
  return user;
}

export function giveawayHubHandlers(giveaway: GiveawayService): HubHandlers<GiveawayHub> {
  return {
    async connect() {},
    calls: {
      GetState: async (ctx) => (await staffOf(ctx), giveaway.state()),
      GetParticipants: async (ctx) => (await staffOf(ctx), giveaway.participants()),
      GetLatestWinners: async (ctx) => (await staffOf(ctx), giveaway.latestWinners()),
      Roll: async (ctx) => giveaway.roll(await staffOf(ctx)),
      ClearParticipants: async (ctx) => giveaway.clearParticipants(await staffOf(ctx)),
      ClearRecentWinners: async (ctx) => giveaway.clearRecentWinners(await staffOf(ctx)),
      AddKey: async (ctx, key) => giveaway.addKey(await staffOf(ctx), key),
      SetKeys: async (ctx, keys) => giveaway.setKeys(await staffOf(ctx), keys),
      UpdateStateSettings: async (ctx, settings) => giveaway.updateSettings(await staffOf(ctx), settings),
    },
  };
}

/** The OBS wheel: public and read-only; every socket joins the one overlay room. */
export function giveawayOverlayHandlers(giveaway: GiveawayService): HubHandlers<GiveawayOverlayHub> {
  return {
    async connect(ctx) {
      ctx.join(OVERLAY_ROOM);
    },
    calls: { GetOverlayState: () => giveaway.overlayState() },
  };
}
