/**
 * Split or Steal as the engine runs it: its rules (packages/common), its row (./repository), its
 * refusals in words, its payout through the ledger and the state it presents per audience: no
 * ball is revealed to everyone before status 4; a player's own balls go only to that player, in
 * their own state while choosing and on request (GetAnswerContext).
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  answerContextFor,
  onDeadline,
  SplitOrStealStatus,
  type Settlement,
  type SplitOrStealError,
} from '@kickback/common/games/split-or-steal';
import { splitOrStealHub } from '@kickback/common/hubs/split-or-steal';
import type { DbOrTx, Tx } from '../../db/client';
import type { SplitOrStealRow } from '../../db/schema/games';
import { GAME_NOT_FOUND } from '../../games/live-game';
import type { GameDefinition } from '../../games/runner';
import { payPrizes, type Prize } from '../staff-prizes/service';
import { findGame, lockGame, presentState, roomOf, saveGame, toGame } from './repository';

export const TIMER_KIND = 'split_or_steal';

const refusals: Record<SplitOrStealError, readonly [number, string]> = {
  not_joinable: [409, 'The game is not taking players.'],
  slot_taken: [409, 'That seat is taken.'],
  slot_reserved: [403, 'That seat is reserved for another player.'],
  already_seated: [409, 'You are already playing in this game.'],
  reserved_elsewhere: [409, 'Your seat is the other one.'],
  not_choosing: [409, 'Choosing is not open.'],
  not_a_player: [403, 'Only the players choose.'],
  choosing_over: [409, 'Time is up.'],
  already_final: [409, 'The game is already over.'],
  stale_deadline: [409, 'The game moved on.'],
  not_due: [409, 'Not yet.'],
};

/**
 * Winnings in points through the ledger, in the transaction that ended the game: the status
 * change 3 → 4 happens once under the row lock, so the payout does too (the reference
 * `splitorsteal:{game}:{slot}` names it in the ledger). A game a Moderator created is paid within
 * the staff prize limits; above them, or to a staff account, the winnings wait for an Admin in
 * Fulfilment (../staff-prizes).
 */
async function payOut(tx: Tx, row: SplitOrStealRow, { winnings }: Settlement, log: FastifyBaseLogger): Promise<void> {
  const seats = [row.player1UserId, row.player2UserId] as const;
  const prizes: Prize[] = [];
  for (const slot of [1, 2] as const) {
    const userId = seats[slot - 1];
    const cents = winnings[slot - 1]!;
    if (!userId || cents <= 0n) continue;
    prizes.push({
      userId,
      cents,
      reason: 'game_win',
      reference: `splitorsteal:${row.id}:${slot}`,
      memo: 'Split or Steal winnings',
    });
  }
  const outcomes = await payPrizes(
    tx,
    { label: `Split or Steal game ${row.id}`, target: { type: 'split_or_steal', id: row.id }, runBy: [row.createdBy] },
    prizes,
    row.endedAt ?? row.createdAt,
  );
  outcomes.forEach((outcome, i) => {
    if (outcome.kind === 'skipped') {
      log.warn({ game: row.id, userId: prizes[i]!.userId }, 'split or steal winnings skipped: excluded account');
    }
  });
}

/**
 * The state per audience: everyone the same, except that while the players choose (status 3) each
 * seated player's own state carries their own two balls, as `GetAnswerContext` answers them; no
 * other view carries a ball before status 4.
 */
async function presentViews(db: DbOrTx, row: SplitOrStealRow) {
  const watcher = await presentState(db, row);
  const game = toGame(row);
  if (game.status !== SplitOrStealStatus.Choosing) return { watcher };
  const seated = game.players.filter((id): id is string => id !== null);
  return {
    watcher,
    users: new Map(seated.map((id) => [id, { ...watcher, answerContext: answerContextFor(game, id) }])),
  };
}

export function splitOrStealGame(log: FastifyBaseLogger) {
  return {
    kind: TIMER_KIND,
    hub: splitOrStealHub,
    stateEvent: 'ReceiveGameState',
    room: roomOf,
    store: { lock: lockGame, find: findGame, toGame, save: saveGame },
    notFoundMessage: GAME_NOT_FOUND,
    refusals,
    onDeadline,
    settle: (tx, row, settlement) => payOut(tx, row, settlement, log),
    present: (db, row) => presentViews(db, row),
  } satisfies GameDefinition<
    ReturnType<typeof toGame>,
    SplitOrStealError,
    Settlement,
    SplitOrStealRow,
    typeof splitOrStealHub,
    'ReceiveGameState'
  >;
}
