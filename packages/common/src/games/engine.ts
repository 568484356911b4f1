/**
 * The rules contract every live game follows (docs/architecture.md#the-game-engine,
 * docs/conventions.md#rule-7-one-owner-per-game-action,
 * docs/conventions.md#rule-8-pure-game-rules). A game's rules are pure functions: a state and an
 * action in, an outcome out. The server's runner (apps/server/src/games) wraps them: lock the game
 * row, apply the rule, save, present per audience, schedule the deadline, emit after commit.
 * Nothing here knows about storage, clocks or sockets.
 *
 * - Every state carries a `version` that grows with every change: clients drop older states, and a
 *   deadline names the version of the phase it was set for (`phaseVersion`), so a deadline fired
 *   after the game moved on is a no-op.
 * - An outcome is a refusal (`{ ok: false, error }`, nothing changes) or a change: the new state,
 *   an optional deadline to store, an optional settlement for the runner to pay.
 * - A view is cut per audience: what the owner, a player, a watcher or an admin may see. Hidden
 *   information never leaves the server in a view not meant for it.
 */

/** What every live game state has, so the runner can version, time and store it. */
export interface LiveGameState {
  /** Grows by one with every change; clients use it to drop stale states. */
  version: number;
  /** When the current timed phase ends (epoch ms); null when nothing is timed. */
  phaseEndsAt: number | null;
  /** The version at which the current timed phase began: its deadline carries this number. */
  phaseVersion: number | null;
}

export type Outcome<G, E extends string, S = never> =
  | {
      ok: true;
      game: G;
      /** A deadline to store and fire (epoch ms), fired with `game.phaseVersion`. */
      deadline: number | null;
      /** What the runner pays (or records) in the transaction of this change. */
      settlement: S | null;
    }
  | { ok: false; error: E };

export type Change<O> = Extract<O, { ok: true }>;

export const refuse = <E extends string>(error: E): { ok: false; error: E } => ({ ok: false, error });

/** A change: the version grows by one. */
export function changed<G extends LiveGameState, S = never>(
  game: G,
  deadline: number | null = null,
  settlement: S | null = null,
): { ok: true; game: G; deadline: number | null; settlement: S | null } {
  return { ok: true, game: { ...game, version: game.version + 1 }, deadline, settlement };
}

/** An accepted action that changes nothing (same object: the runner saves and emits nothing). */
export function unchanged<G>(game: G): { ok: true; game: G; deadline: null; settlement: null } {
  return { ok: true, game, deadline: null, settlement: null };
}

/** Starts a timed phase: the deadline `seconds` from `now`, carrying the version the change makes. */
export function timedPhase<G extends LiveGameState>(
  game: G,
  now: number,
  seconds: number,
): { phaseEndsAt: number; phaseVersion: number } {
  return { phaseEndsAt: now + seconds * 1000, phaseVersion: game.version + 1 };
}

/**
 * Why a deadline may not fire: stale (the game moved on since it was set), not due yet (it came
 * early: another process's clock, a retry), or null when it may.
 */
export function deadlineCheck(
  game: LiveGameState,
  at: { version: number; now: number },
): 'stale_deadline' | 'not_due' | null {
  if (game.phaseVersion === null || game.phaseEndsAt === null || at.version !== game.phaseVersion) {
    return 'stale_deadline';
  }
  if (at.now < game.phaseEndsAt) return 'not_due';
  return null;
}

/** Who a viewer is to a game, most privileged seat first. */
export const audiences = ['owner', 'player', 'admin', 'watcher'] as const;
export type Audience = (typeof audiences)[number];

/** A user with a seat at a game: they get their own view. */
export interface Seat {
  userId: string;
  audience: 'owner' | 'player';
}

export interface Viewer {
  userId: string | null;
  isAdmin: boolean;
}

/** The audience of a viewer: their seat if they have one, else admin or watcher. */
export function audienceOf(
  seats: readonly Seat[],
  viewer: Viewer | null,
): { audience: Audience; userId: string | null } {
  const seat = viewer?.userId ? seats.find((s) => s.userId === viewer.userId) : undefined;
  if (seat) return { audience: seat.audience, userId: seat.userId };
  return { audience: viewer?.isAdmin ? 'admin' : 'watcher', userId: viewer?.userId ?? null };
}
