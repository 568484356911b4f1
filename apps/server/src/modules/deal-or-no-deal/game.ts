/**
 * Deal or No Deal as the engine runs it: its rules (packages/common), its storage (the engine's
 * generic JSON rows, amounts as text so money stays exact), its refusals in words, the prize
 * queued for delivery on the claim, the state it presents and the show's cues (sounds, opened
 * boxes) it announces after each change. Every viewer gets the same state: nobody, the owner and
 * admins included, sees inside a shut box.
 */
import {
  cuesOf,
  onDeadline,
  viewOf,
  type DealOrNoDealError,
  type DealOrNoDealGame,
  type Settlement,
} from '@kickback/common/games/deal-or-no-deal';
import { dealOrNoDealHub, type DealOrNoDealState } from '@kickback/common/hubs/deal-or-no-deal';
import { centsToNumber } from '@kickback/common/money';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { DbOrTx, Tx } from '../../db/client';
import type { LiveGameRow } from '../../db/schema/games';
import { users } from '../../db/schema/users';
import { GAME_NOT_FOUND } from '../../games/live-game';
import type { GameDefinition, Unstamped } from '../../games/runner';
import type { AfterCommit } from '../../lib/after-commit';
import { jsonGameStore } from '../../games/store';
import { enqueueFulfilment } from '../fulfilment/service';

export const GAME_KIND = 'deal_or_no_deal';

type Stored = Omit<DealOrNoDealGame, 'board' | 'offerCents' | 'winningCents'> & {
  board: string[];
  offerCents: string | null;
  winningCents: string | null;
};

const big = (v: string | null) => (v === null ? null : BigInt(v));
const text = (v: bigint | null) => (v === null ? null : String(v));

export const store = jsonGameStore<DealOrNoDealGame>(GAME_KIND, {
  encode: (g) =>
    ({
      ...g,
      board: g.board.map(String),
      offerCents: text(g.offerCents),
      winningCents: text(g.winningCents),
    }) satisfies Stored,
  decode: (json) => {
    const j = json as Stored;
    return {
      ...j,
      board: j.board.map((c) => BigInt(c)),
      offerCents: big(j.offerCents),
      winningCents: big(j.winningCents),
    };
  },
});

const refusals: Record<DealOrNoDealError, readonly [number, string]> = {
  not_owner: [403, 'Only the player of this game can do that.'],
  not_started: [409, 'The game has not started yet.'],
  not_waiting: [409, 'The game has already started.'],
  not_selecting: [409, 'Boxes cannot be selected now.'],
  no_such_box: [400, 'There is no such box.'],
  primary_box: [409, 'That is your own box.'],
  already_opened: [409, 'That box is already open.'],
  no_offer: [409, 'There is no offer to answer.'],
  no_swap: [409, 'There is no swap offer to answer.'],
  not_claimable: [409, 'The game cannot be claimed.'],
  already_final: [409, 'The game is already over.'],
  stale_deadline: [409, 'The game moved on.'],
  not_due: [409, 'Not yet.'],
};

export const roomOf = (gameId: string) => `dealornodeal:${gameId}`;

const dollars = (cents: bigint | null) => (cents === null ? null : centsToNumber(cents));

/** The state every viewer may see (docs/product.md#live-entities): shut boxes carry no amount. */
export async function presentState(db: DbOrTx, row: LiveGameRow): Promise<Unstamped<DealOrNoDealState>> {
  const game = store.toGame(row);
  const view = viewOf(game);
  const [owner] = await db
    .select({ userId: users.id, username: users.username, avatarUrl: users.avatarUrl })
    .from(users)
    .where(eq(users.id, game.ownerId))
    .limit(1);
  const box = (b: (typeof view.boxesInfo)[number] | null) =>
    b === null ? null : { id: b.id, isOpened: b.isOpened, amount: dollars(b.amount) };
  return {
    id: row.id,
    version: game.version,
    phaseEndsAt: game.phaseEndsAt === null ? null : new Date(game.phaseEndsAt).toISOString(),
    status: view.status,
    amounts: view.amounts.map((a) => ({ value: centsToNumber(a.value), isOpened: a.isOpened })),
    boxesInfo: view.boxesInfo.map((b) => box(b)!),
    primaryBoxId: view.primaryBoxId,
    primaryBox: box(view.primaryBox),
    lastOpenedBoxId: view.lastOpenedBoxId,
    lastOpenedBox: box(view.lastOpenedBox),
    currentOffer: view.offerCents === null ? null : { amount: centsToNumber(view.offerCents) },
    winningAmount: dollars(view.winningCents),
    remainingBoxCountToOffer: view.remainingBoxCountToOffer,
    round: view.round,
    ending: view.ending,
    isPrivate: view.isPrivate,
    user: owner ?? { userId: game.ownerId, username: 'Deleted user', avatarUrl: null },
    commitment: view.commitment,
    seed: view.seed,
    board: view.board === null ? null : view.board.map((c) => centsToNumber(c)),
  };
}

/**
 * The show's cues after a change, for after the commit, to the whole room: stop the thinking
 * music, the opened box, then the sounds. They carry only what every watcher may see (a box's
 * amount once it is open).
 */
function announce(
  app: FastifyInstance,
  { before, after, row }: { before: DealOrNoDealGame; after: DealOrNoDealGame; row: LiveGameRow },
  afterCommit: AfterCommit,
): void {
  const cues = cuesOf(before, after);
  const room = roomOf(row.id);
  afterCommit.push(() => {
    if (cues.stop) app.realtime.emit(dealOrNoDealHub, room, 'StopSound', null);
    for (const o of cues.opened) {
      app.realtime.emit(dealOrNoDealHub, room, 'CaseOpened', { boxId: o.boxId, amount: centsToNumber(o.cents) });
    }
    for (const sound of cues.play) app.realtime.emit(dealOrNoDealHub, room, 'PlaySound', sound);
  });
}

/**
 * The claim queues the prize for an admin to deliver, in the transaction that moved the game
 * 0 → 5 under its row lock: that status change happens once, and (kind, reference) is unique in
 * the queue besides, so a prize cannot be queued twice. The item names who created the game and
 * when: they cannot deliver it, and unless they are an Admin, a staff winner or an account newer
 * than the game waits for one (docs/features/staff-prize-limits.md#deal-or-no-deal).
 */
async function queuePrize(tx: Tx, row: LiveGameRow, { prizeCents }: Settlement): Promise<void> {
  const game = store.toGame(row);
  const id = await enqueueFulfilment(tx, {
    kind: 'deal_or_no_deal',
    reference: `game:${row.id}`,
    userId: game.ownerId,
    description: 'Deal or No Deal prize',
    amount: centsToNumber(prizeCents),
    unit: 'USD',
    runBy: row.createdBy ? { userId: row.createdBy, at: row.createdAt } : null,
  });
  if (id === null) throw new Error(`Deal or No Deal prize of game ${row.id} was already queued`);
}

export function dealOrNoDealGame(app: FastifyInstance) {
  return {
    kind: GAME_KIND,
    hub: dealOrNoDealHub,
    stateEvent: 'GameStateChange',
    room: roomOf,
    store,
    notFoundMessage: GAME_NOT_FOUND,
    refusals,
    onDeadline,
    settle: queuePrize,
    announce: (change, afterCommit) => announce(app, change, afterCommit),
    present: async (db, row) => ({ watcher: await presentState(db, row) }),
    // A state is its row and the player's name and picture: a link drop's visitors share one
    // presentation of a saved row, and a renamed player shows within the second.
    presentCache: { ms: 1000, stamp: (row) => `${row.version}:${row.updatedAt.getTime()}` },
  } satisfies GameDefinition<
    DealOrNoDealGame,
    DealOrNoDealError,
    Settlement,
    LiveGameRow,
    typeof dealOrNoDealHub,
    'GameStateChange'
  >;
}
