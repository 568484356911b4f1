/**
 * The `/SplitOrSteal?gameid={id}` hub (docs/product.md#live-calls). The handshake decides the room: a viewer
 * who may see the game joins its room and gets every state; a viewer of a private game who may
 * not gets nothing (GetGameState answers null, the page shows "Game Is Private").
 */
import type { FastifyInstance } from 'fastify';
import { splitOrStealHub, type SplitOrStealHub } from '@kickback/common/hubs/split-or-steal';
import { unauthorized } from '../../lib/errors';
import type { HubHandlers } from '../../plugins/realtime';
import { roomOf } from './repository';
import type { SplitOrStealService } from './service';

/** The chat room of a game in the shared game-chat table. */
export const chatRoomOf = (gameId: string) => `splitorsteal:${gameId}`;

export function splitOrStealHubHandlers(
  app: FastifyInstance,
  games: SplitOrStealService,
): HubHandlers<SplitOrStealHub> {
  const { connect, GetGameState } = games.hub();
  return {
    connect,
    calls: {
      GetGameState,
      GetAnswerContext: (ctx) => games.answerContext(ctx.query.gameid, ctx.user),
      async GetChatMessages(ctx) {
        await games.mustSee(ctx.query.gameid, ctx.user);
        return app.gameChat.recent(chatRoomOf(ctx.query.gameid));
      },
      async JoinGame(ctx, slot) {
        return games.join(await ctx.currentUser(), ctx.query.gameid, slot);
      },
      async UpdateSelection(ctx, ball) {
        return games.select(await ctx.currentUser(), ctx.query.gameid, ball);
      },
      async SendChatMessage(ctx, text) {
        const user = await ctx.currentUser();
        if (!user) throw unauthorized();
        await games.mustSee(ctx.query.gameid, user);
        const message = await app.gameChat.post(chatRoomOf(ctx.query.gameid), user, text);
        app.realtime.emit(splitOrStealHub, roomOf(ctx.query.gameid), 'ReceiveChatMessage', message);
        return message;
      },
    },
  };
}
