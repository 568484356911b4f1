/**
 * A bonus-buy battle as the engine runs it (docs/features/bonus-buy-battles.md): its rules
 * (packages/common/src/games/battle.ts), its storage (the engine's generic JSON rows; amounts are
 * decimal text already, so the codec is the identity), its refusals in words, the one state every
 * viewer gets, and its settlements: the close asks for the draw once committed, the final pays the
 * prize in the transaction that finished the battle.
 */
import {
  bracketOf,
  currentMatch,
  multiplierText,
  decidedBy,
  onDeadline,
  TIE_RULE,
  type BattleError,
  type BattleGame,
  type BracketMatch,
  type Settlement,
} from '@kickback/common/games/battle';
import { battleHub, type BattleSide, type BattleState } from '@kickback/common/hubs/battle';
import { siteById } from '@kickback/common/http/leaderboards';
import { decimalToNumber, toCents } from '@kickback/common/money';
import { shownName, shownNameOrNull } from '@kickback/common/shown-name';
import { eq } from 'drizzle-orm';
import type { Viewer } from '@kickback/common/games/engine';
import type { Tx } from '../../db/client';
import { liveGames, type LiveGameRow } from '../../db/schema/games';
import { users } from '../../db/schema/users';
import type { GameDefinition, Unstamped } from '../../games/runner';
import { jsonGameStore } from '../../games/store';
import type { AfterCommit } from '../../lib/after-commit';
import { actorOf } from '../audit/service';
import { enqueueFulfilment } from '../fulfilment/service';
import { payPrizes } from '../staff-prizes/service';

export const BATTLE_KIND = 'bonus_battle';
export const BATTLE_NOT_FOUND = 'No such battle.';

export const store = jsonGameStore<BattleGame>(BATTLE_KIND, {
  encode: (g) => ({ ...g }),
  decode: (json) => json as BattleGame,
});

export const refusals: Record<BattleError, readonly [number, string]> = {
  not_registration: [409, 'Registration for this battle is not open.'],
  registration_over: [409, 'Registration for this battle has ended.'],
  already_entered: [409, 'You are already in this battle.'],
  full: [409, 'This battle has as many entrants as it takes.'],
  not_entrant: [400, 'That user is not in this battle.'],
  slot_locked: [409, 'That entrant has played a match: their slot is set.'],
  not_closed: [409, 'The bracket is already drawn.'],
  bad_draw: [409, 'The draw does not match the entrant list.'],
  not_playing: [409, 'This battle is not being played.'],
  not_in_play: [409, 'That match is not in play.'],
  bad_result: [400, 'A cost must be more than 0 and a win 0 or more, each at most 10,000,000.'],
  not_replayable: [409, 'That match cannot be played again: it has no result, or the next match is recorded.'],
  already_over: [409, 'This battle is over.'],
  stale_deadline: [409, 'The battle moved on.'],
  not_due: [409, 'Not yet.'],
};

export const roomOf = (battleId: string) => `battle:${battleId}`;

function sideOf(game: BattleGame, id: string | null | undefined): BattleSide {
  if (id === undefined) return { kind: 'tbd' };
  if (id === null) return { kind: 'bye' };
  const e = game.entrants.find((x) => x.userId === id);
  return {
    kind: 'entrant',
    userId: id,
    username: shownName(e?.username ?? 'Deleted user'),
    slot: shownNameOrNull(e?.slot ?? null),
  };
}

function matchView(game: BattleGame, m: BracketMatch): BattleState['matches'][number] {
  const played = m.outcome?.kind === 'played' ? m.outcome : null;
  const buy = (r: { cost: string; win: string }) => ({
    cost: decimalToNumber(r.cost),
    win: decimalToNumber(r.win),
    multiplier: multiplierText(r),
  });
  return {
    no: m.no,
    round: m.round,
    index: m.index,
    a: sideOf(game, m.a),
    b: sideOf(game, m.b),
    state: m.state,
    winnerId: m.winner ?? null,
    result: played
      ? {
          a: buy(played.a),
          b: buy(played.b),
          slotA: played.slotA,
          slotB: played.slotB,
          decidedBy: decidedBy(played.a, played.b),
        }
      : null,
    voidReason: m.outcome?.kind === 'void' ? m.outcome.reason : null,
  };
}

/** The state every viewer sees: the seed only once the bracket is drawn. */
export function presentState(row: LiveGameRow): Unstamped<BattleState> {
  const game = store.toGame(row);
  const site = game.rules.siteId === null ? null : siteById(game.rules.siteId);
  const drawn = game.drawn !== null;
  const winner = game.winnerId ? game.entrants.find((e) => e.userId === game.winnerId) : undefined;
  return {
    id: row.id,
    version: game.version,
    phaseEndsAt: game.phaseEndsAt === null ? null : new Date(game.phaseEndsAt).toISOString(),
    title: game.title,
    size: game.size,
    status: game.status,
    rules: {
      site: site ? { id: site.id, name: site.name } : null,
      minWager: game.rules.minWager === null ? null : decimalToNumber(game.rules.minWager),
      subsOnly: game.rules.subsOnly,
    },
    prize:
      game.prize.kind === 'points'
        ? { kind: 'points', points: decimalToNumber(game.prize.points), item: null }
        : { kind: 'item', points: null, item: game.prize.item },
    tieRule: TIE_RULE,
    entrants: game.entrants.map((e) => ({
      userId: e.userId,
      username: shownName(e.username),
      slot: shownNameOrNull(e.slot),
      seq: e.seq,
    })),
    seedHash: game.seedHash,
    seed: drawn ? game.seed : null,
    snapshotHash: game.snapshotHash,
    matches: bracketOf(game).map((m) => matchView(game, m)),
    currentMatchNo: currentMatch(game)?.no ?? null,
    winner: winner ? { userId: winner.userId, username: winner.username } : null,
    cancelReason: game.cancelReason,
  };
}

/**
 * The finish, in the transaction that resolved the final under the battle's row lock: the status
 * moves to finished once, and the runner settles only the change that made it, so the finisher is
 * recorded and the prize paid once. Points go through the staff-prize gate, run by the battle's
 * creator (the row's owner) and its finisher: unless both are Admins it pays within the limits and
 * never straight to staff, so a Moderator who finishes a battle cannot pay himself; the audit entry
 * of the prize names the finisher (docs/features/staff-prize-limits.md#which-events-count).
 */
async function finish(tx: Tx, row: LiveGameRow, winnerId: string | null, finisher: string | null): Promise<void> {
  await tx.update(liveGames).set({ finishedBy: finisher }).where(eq(liveGames.id, row.id));
  if (winnerId === null) return; // a voided final pays nobody
  const game = store.toGame(row);
  const reference = `battle:${row.id}`;
  if (game.prize.kind === 'points') {
    const [by] = finisher
      ? await tx.select({ id: users.id, username: users.username }).from(users).where(eq(users.id, finisher))
      : [];
    await payPrizes(
      tx,
      {
        label: `Battle "${game.title}"`,
        target: { type: 'battle', id: row.id },
        actor: by ? actorOf(by) : null,
        runBy: [row.ownerUserId, finisher],
      },
      [{ userId: winnerId, cents: toCents(game.prize.points), reason: 'battle_prize', reference, memo: game.title }],
      row.updatedAt,
    );
  } else {
    await enqueueFulfilment(tx, {
      kind: 'battle',
      reference,
      userId: winnerId,
      description: `Battle "${game.title}": ${game.prize.item}`,
    });
  }
}

export function battleGame(hooks: { closed(battleId: string): void }) {
  return {
    kind: BATTLE_KIND,
    hub: battleHub,
    stateEvent: 'BattleState',
    room: roomOf,
    store,
    notFoundMessage: BATTLE_NOT_FOUND,
    refusals,
    onDeadline,
    async settle(tx: Tx, row: LiveGameRow, settlement: Settlement, after: AfterCommit, by: Viewer | null) {
      if (settlement.kind === 'closed') after.push(() => hooks.closed(row.id));
      else await finish(tx, row, settlement.winnerId, by?.userId ?? null);
    },
    present: async (_db, row) => ({ watcher: presentState(row) }),
  } satisfies GameDefinition<BattleGame, BattleError, Settlement, LiveGameRow, typeof battleHub, 'BattleState'>;
}
