/**
 * The `/KickGiveAway` hub (spec part 2 §7): every call is for admins only, checked on the server
 * against the session as of the call (a sign-out or demotion applies at once). Anyone may open
 * the socket, but only an admin's socket is in the admins' audience that the events go to.
 */
import type { GiveawayHub } from '@kickback/common/hubs/giveaway';
import type { GiveawayOverlayHub } from '@kickback/common/hubs/giveaway-overlay';
import type { UserRow } from '../../db/schema/users';
import { forbidden, unauthorized } from '../../lib/errors';
import type { HubContext, HubHandlers } from '../../plugins/realtime';
import { OVERLAY_ROOM, type GiveawayService } from './service';

async function adminOf(ctx: HubContext<GiveawayHub>): Promise<UserRow> {
  const user = await ctx.currentUser();
  if (!user) throw unauthorized();
  if (user.role !== 'Admin') throw forbidden();
  return user;
}

export function giveawayHubHandlers(giveaway: GiveawayService): HubHandlers<GiveawayHub> {
  return {
    async connect() {},
    calls: {
      GetState: async (ctx) => (await adminOf(ctx), giveaway.state()),
      GetParticipants: async (ctx) => (await adminOf(ctx), giveaway.participants()),
      GetLatestWinners: async (ctx) => (await adminOf(ctx), giveaway.latestWinners()),
      Roll: async (ctx) => giveaway.roll(await adminOf(ctx)),
      ClearParticipants: async (ctx) => giveaway.clearParticipants(await adminOf(ctx)),
      ClearRecentWinners: async (ctx) => giveaway.clearRecentWinners(await adminOf(ctx)),
      AddKey: async (ctx, key) => giveaway.addKey(await adminOf(ctx), key),
      SetKeys: async (ctx, keys) => giveaway.setKeys(await adminOf(ctx), keys),
      UpdateStateSettings: async (ctx, settings) => giveaway.updateSettings(await adminOf(ctx), settings),
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
