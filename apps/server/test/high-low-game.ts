/**
 * The server side of High or Low, the engine's tiny test game (packages/common/src/testing): its
 * storage codec, its definition (payout through the ledger, emits to the winner and the admins
 * after commit) and its hub handlers. Tests register it with `buildTestApp({ routes })`; the
 * production app never does. This file is what registering a new live game takes.
 */
import type { FastifyInstance } from 'fastify';
import type { Viewer } from '@kickback/common/games/engine';
import { centsToText } from '@kickback/common/money';
import {
  guess,
  HighLowStatus,
  highLowHub,
  newHighLow,
  onDeadline,
  start,
  viewFor,
  type HighLowError,
  type HighLowGame,
  type HighLowSettlement,
} from '@kickback/common/testing/high-low';
import type { UserRow } from '../src/db/schema/users';
import type { LiveGameRow } from '../src/db/schema/games';
import type { GameDefinition } from '../src/games/runner';
import { jsonGameStore } from '../src/games/store';
import { notFound, unauthorized } from '../src/lib/errors';
import { payPrizes } from '../src/modules/staff-prizes/service';

export const HIGH_LOW_KIND = 'test_high_low';

const storeOf = (kind: string) =>
  jsonGameStore<HighLowGame>(kind, {
    encode: (g) => ({
      ...g,
      prizeCents: String(g.prizeCents),
      wonCents: g.wonCents === null ? null : String(g.wonCents),
    }),
    decode: (json) => {
      const j = json as HighLowGame & { prizeCents: string; wonCents: string | null };
      return { ...j, prizeCents: BigInt(j.prizeCents), wonCents: j.wonCents === null ? null : BigInt(j.wonCents) };
    },
  });

const refusals: Record<HighLowError, readonly [number, string]> = {
  not_owner: [403, 'Only the owner plays.'],
  not_waiting: [409, 'The game has started.'],
  not_guessing: [409, 'Guessing is not open.'],
  time_up: [409, 'Time is up.'],
  stale_deadline: [409, 'The game moved on.'],
  not_due: [409, 'Not yet.'],
};

const viewerOf = (user: UserRow | null): Viewer | null =>
  user ? { userId: user.id, isAdmin: user.role === 'Admin' } : null;

/** High or Low's definition for the engine (another `kind` registers a second, separate copy). */
export function highLowGame(app: FastifyInstance, kind = HIGH_LOW_KIND) {
  const room = (id: string) => `highlow:${id}`;
  const store = storeOf(kind);
  const definition = {
    kind,
    hub: highLowHub,
    stateEvent: 'ReceiveGameState',
    room,
    store,
    notFoundMessage: 'Game not found.',
    refusals,
    onDeadline,
    async settle(tx, row, { ownerId, wonCents }, after) {
      if (wonCents > 0n) {
        // A prize like any other: through the staff-prize gate, the player's own game run by them.
        await payPrizes(
          tx,
          { label: `High-low game ${row.id}`, target: { type: 'highlow', id: row.id }, runBy: [ownerId] },
          [{ userId: ownerId, cents: wonCents, reason: 'game_win', reference: `highlow:${row.id}` }],
          new Date(),
        );
        after.push(() =>
          app.realtime.emitToUser(highLowHub, ownerId, 'YouWon', { gameId: row.id, amount: centsToText(wonCents) }),
        );
      }
      after.push(() =>
        app.realtime.emitToAdmins(highLowHub, 'Settled', { gameId: row.id, won: centsToText(wonCents) }),
      );
    },
    announce({ before, after: game, row }, after) {
      if (before.status !== HighLowStatus.Guessing && game.status === HighLowStatus.Guessing) {
        after.push(() => app.realtime.emit(highLowHub, room(row.id), 'PlaySound', { name: 'start' }));
      }
    },
    async present(_db, row) {
      const game = store.toGame(row);
      return {
        watcher: viewFor(game, null, row.id),
        admin: viewFor(game, { userId: null, isAdmin: true }, row.id),
        users: new Map([[game.ownerId, viewFor(game, { userId: game.ownerId, isAdmin: false }, row.id)]]),
      };
    },
  } satisfies GameDefinition<
    HighLowGame,
    HighLowError,
    HighLowSettlement,
    LiveGameRow,
    typeof highLowHub,
    'ReceiveGameState'
  >;
  return { definition, store, room };
}

export function registerHighLow(app: FastifyInstance) {
  const { definition, store, room } = highLowGame(app);
  const runner = app.games.register(definition);

  const act = async (
    user: UserRow | null,
    gameId: string,
    rule: (g: HighLowGame, u: UserRow) => ReturnType<typeof start>,
  ) => {
    if (!user) throw unauthorized();
    return (await runner.act(gameId, viewerOf(user), (g) => rule(g, user))).view;
  };
  const now = () => app.clock.now().getTime();

  app.realtime.register(highLowHub, {
    async connect(ctx) {
      if (!(await runner.find(ctx.query.gameid))) throw notFound('Game not found.');
      ctx.join(room(ctx.query.gameid));
    },
    calls: {
      async GetGameState(ctx) {
        const row = await runner.find(ctx.query.gameid);
        if (!row) throw notFound('Game not found.');
        return runner.view(row, viewerOf(await ctx.currentUser()));
      },
      Start: async (ctx) =>
        act(await ctx.currentUser(), ctx.query.gameid, (g, u) => start(g, { userId: u.id, now: now() })),
      Guess: async (ctx, pick) =>
        act(await ctx.currentUser(), ctx.query.gameid, (g, u) => guess(g, { userId: u.id, pick, now: now() })),
    },
  });

  return {
    runner,
    /** A new game (what an admin route would do). */
    async create(ownerId: string, opts: { secret: number; seconds: number; prizeCents: bigint }): Promise<string> {
      const row = await store.create(app.db, newHighLow({ ownerId, ...opts }), ownerId, app.clock.now());
      return row.id;
    },
  };
}
