/**
 * The live-game kit (docs/architecture.md#the-live-game-kit): what every live game's service did
 * the same way, once. Around a registered game's runner it gives who a user is to the engine, who
 * may see a game (404 for an unknown one, "Game Is Private" for a private one), the state as a
 * viewer may see it, the action wrapper (401 without a user, 403 for a game they may not see, then
 * the rule under the row lock) and the admin actions recorded in the audit log in the action's
 * transaction. A game's module writes only what is its own: creating a game, its actions' rules,
 * who may see a private game, and its admin list.
 */
import { canModerate } from '@kickback/common/access';
import type { LiveGameState, Outcome, Viewer } from '@kickback/common/games/engine';
import type { Role } from '@kickback/common/http/auth';
import type { EventName, EventPayload, HubSpec } from '@kickback/common/hubs/hub';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../db/client';
import { forbidden, notFound, unauthorized } from '../lib/errors';
import type { GameDefinition, GameRunner } from './runner';
import { RecentPromises } from './recent-promises';

/** The answer for an unknown game, on every live game. */
export const GAME_NOT_FOUND = 'Game not found.';
/** The refusal for a private game the viewer may not see (the page shows it as its title). */
export const GAME_IS_PRIVATE = 'Game Is Private';

/** A signed-in user as the kit needs them (a session's user row has more). */
export interface Person {
  id: string;
  role: Role;
}

/** A user as the engine's views know them: Moderators and Admins run games, so they are its admins. */
export const viewerOf = (user: Person | null): Viewer | null =>
  user ? { userId: user.id, isAdmin: canModerate(user.role) } : null;

/** An admin action's audit row: the action, its target type, and what it records of the row. */
export interface AuditOf<Row> {
  action: string;
  targetType: string;
  before(row: Row): unknown;
  after(row: Row): unknown;
  /**
   * Runs in the action's transaction, under the game's row lock, before the audit row; throwing
   * refuses the action and undoes it (a prediction's bettor may not lock it).
   */
  check?(tx: Tx, row: Row): Promise<void>;
}

/** Writes one audit row (the module's audit service; the engine does not import modules). */
export type RecordAudit<Admin> = (
  tx: Tx,
  admin: Admin,
  entry: { action: string; targetType: string; targetId: string; before: unknown; after: unknown },
) => Promise<void>;

export interface LiveGameOptions<G, Row, Admin> {
  /** Whether a viewer may see the game (a private game: its players and the staff). Default: all may. */
  canSee?(game: G, row: Row, viewer: Person | null): boolean;
  recordAudit: RecordAudit<Admin>;
  /**
   * For a game whose `canSee` reads only what never changes once it is created (its owner, whether
   * it is private) and that is never deleted: the hub handshake may decide from a row this process
   * read within this many ms, so a link drop's visitors do not each read it (their `GetGameState`
   * still reads the game afresh). Unset: every handshake reads it.
   */
  fixedVisibilityMs?: number;
}

/** One registered live game with the kit's plumbing around its runner. */
export class LiveGame<
  G extends LiveGameState,
  E extends string,
  S,
  Row extends { id: string },
  H extends HubSpec,
  Ev extends EventName<H>,
  Admin extends Person = Person,
> {
  readonly runner: GameRunner<G, E, S, Row, H, Ev>;
  /** Rows the handshakes decide from, per game (options.fixedVisibilityMs); an unknown game is not kept. */
  private readonly admissions: RecentPromises<Row | null> | null;

  constructor(
    app: FastifyInstance,
    definition: GameDefinition<G, E, S, Row, H, Ev>,
    private readonly options: LiveGameOptions<G, Row, Admin>,
  ) {
    this.runner = app.games.register(definition);
    const ms = options.fixedVisibilityMs ?? 0;
    // An unknown game is forgotten at once: it may be created the next moment.
    this.admissions = ms > 0 ? new RecentPromises<Row | null>(ms, (row) => row !== null) : null;
  }

  get definition(): GameDefinition<G, E, S, Row, H, Ev> {
    return this.runner.definition;
  }

  private canSee(row: Row, viewer: Person | null): boolean {
    return this.options.canSee?.(this.definition.store.toGame(row), row, viewer) ?? true;
  }

  /** Throws 404 for an unknown game; answers whether the viewer may see it. */
  async visibility(gameId: string, viewer: Person | null): Promise<{ row: Row; visible: boolean }> {
    const row = await this.runner.find(gameId);
    if (!row) throw notFound(this.definition.notFoundMessage);
    return { row, visible: this.canSee(row, viewer) };
  }

  /**
   * `visibility` for a hub handshake: from a row read within `fixedVisibilityMs` when the game's
   * visibility never changes, else read now.
   */
  async admission(gameId: string, viewer: Person | null): Promise<{ visible: boolean }> {
    if (!this.admissions) return this.visibility(gameId, viewer);
    const row = await this.admissions.get(gameId, '', () => this.runner.find(gameId));
    if (!row) throw notFound(this.definition.notFoundMessage);
    return { visible: this.canSee(row, viewer) };
  }

  /** The game's row when the viewer may see it: 404 unknown, 403 private to them. */
  async mustSee(gameId: string, viewer: Person | null): Promise<Row> {
    const { row, visible } = await this.visibility(gameId, viewer);
    if (!visible) throw forbidden(GAME_IS_PRIVATE);
    return row;
  }

  /** The state for this viewer, or null when the game is private to them. */
  async state(gameId: string, viewer: Person | null): Promise<EventPayload<H, Ev> | null> {
    const { row, visible } = await this.visibility(gameId, viewer);
    if (!visible) return null;
    return this.runner.view(row, viewerOf(viewer));
  }

  /**
   * A user's action: 401 without a user; under the row lock, 403 for a game they may not see, then
   * the rule decides (it may refuse by throwing, e.g. an excluded account). Answers their view.
   */
  async act<U extends Person>(
    user: U | null,
    gameId: string,
    rule: (game: G, user: U, row: Row) => Outcome<G, E, S>,
  ): Promise<EventPayload<H, Ev>> {
    if (!user) throw unauthorized();
    const { view } = await this.runner.act(gameId, viewerOf(user), (game, row) => {
      if (!this.canSee(row, user)) throw forbidden(GAME_IS_PRIVATE);
      return rule(game, user, row);
    });
    return view;
  }

  /** An admin's action (cancel, lock, resolve…), with its audit row in the same transaction. */
  async adminAct(
    admin: Admin,
    gameId: string,
    rule: (game: G) => Outcome<G, E, S>,
    audit: AuditOf<Row>,
  ): Promise<EventPayload<H, Ev>> {
    const { view } = await this.runner.act(gameId, viewerOf(admin), rule, async (tx, before, after) => {
      await audit.check?.(tx, before);
      await this.options.recordAudit(tx, admin, {
        action: audit.action,
        targetType: audit.targetType,
        targetId: gameId,
        before: audit.before(before),
        after: audit.after(after),
      });
    });
    return view;
  }
}

/** What the kit's hub handlers read of a hub call's context (every live game's hub has `?gameid=`). */
export interface GameHubContext {
  readonly query: { gameid: string };
  readonly user: Person | null;
  currentUser(): Promise<Person | null>;
  join(room: string): void;
}

/**
 * The hub handlers every live game has: the handshake puts a viewer who may see the game in its
 * room (a viewer of a private game who may not is in no room and gets nothing), an unknown game
 * refuses the handshake (404); `GetGameState` answers the state as the caller may see it, or null
 * for a private game (the page shows "Game Is Private").
 */
export function gameHub<P>(game: {
  admission(gameId: string, viewer: Person | null): Promise<{ visible: boolean }>;
  state(gameId: string, viewer: Person | null): Promise<P | null>;
  definition: { room(gameId: string): string };
}) {
  return {
    async connect(ctx: GameHubContext): Promise<void> {
      const { visible } = await game.admission(ctx.query.gameid, ctx.user);
      if (visible) ctx.join(game.definition.room(ctx.query.gameid));
    },
    GetGameState: async (ctx: GameHubContext) => game.state(ctx.query.gameid, await ctx.currentUser()),
  };
}
