/**
 * The `/DealOrNoDeal?gameid={id}` hub (docs/product.md#live-calls). The handshake decides the room: a viewer
 * who may see the game joins its room and gets every state and cue; a viewer of a private game
 * who may not gets nothing (GetGameState answers null, the page shows "Game Is Private"). Every
 * action re-reads the session and is decided by the rules under the game's row lock.
 */
import type { DealOrNoDealHub } from '@kickback/common/hubs/deal-or-no-deal';
import type { HubHandlers } from '../../plugins/realtime';
import type { DealOrNoDealService } from './service';

export function dealOrNoDealHubHandlers(games: DealOrNoDealService): HubHandlers<DealOrNoDealHub> {
  const { connect, GetGameState } = games.hub();
  return {
    connect,
    calls: {
      GetGameState,
      StartGame: async (ctx) => games.start(await ctx.currentUser(), ctx.query.gameid),
      SelectBox: async (ctx, boxId) => games.selectBox(await ctx.currentUser(), ctx.query.gameid, boxId),
      AnswerOffer: async (ctx, isDeal) => games.answerOffer(await ctx.currentUser(), ctx.query.gameid, isDeal),
      answerSwapOffer: async (ctx, swap) => games.answerSwapOffer(await ctx.currentUser(), ctx.query.gameid, swap),
      Claim: async (ctx) => games.claim(await ctx.currentUser(), ctx.query.gameid),
    },
  };
}
