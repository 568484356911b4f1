/**
 * The runner every live game registers with (docs/architecture.md#the-game-engine,
 * docs/conventions.md#rule-5-emit-after-commit,
 * docs/conventions.md#rule-7-one-owner-per-game-action). One action on one game is one transaction:
 * lock the game row, apply the pure rule, save, pay the settlement, schedule the deadline, present
 * the new state per audience, commit — and only then emit. A refusal changes nothing and emits
 * nothing; a rollback emits nothing. Deadlines are the durable timers of ./timers: a stale one (the
 * game moved on) is a no-op, an early one is moved.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Change, LiveGameState, Outcome, Viewer } from '@kickback/common/games/engine';
import type { EventName, EventPayload, HubSpec } from '@kickback/common/hubs/hub';
import type { LiveStateView } from '@kickback/common/hubs/live-state';
import type { DbOrTx, Db, Tx } from '../db/client';
import type { Clock } from '../lib/clock';
import { type AfterCommit, transactionThen } from '../lib/after-commit';
import { AppError, notFound } from '../lib/errors';
import type { AudienceViews, Realtime } from '../plugins/realtime';
import { RecentPromises } from './recent-promises';
import type { FireResult, GameTimers } from './timers';

/** A view as presented, before the runner stamps the server's time on it at sending. */
export type Unstamped<V extends LiveStateView> = Omit<V, 'serverTime'>;

/** Where a game's state lives: its own table, or the engine's generic one (./store). */
export interface GameStore<G, Row> {
  /** Reads the row and locks it until the transaction ends (`FOR UPDATE`): actions queue here. */
  lock(tx: Tx, gameId: string): Promise<Row | null>;
  find(db: DbOrTx, gameId: string): Promise<Row | null>;
  toGame(row: Row): G;
  /** Writes a changed game back to its locked row; returns the row as saved. */
  save(tx: Tx, row: Row, game: G, now: Date): Promise<Row>;
}

export interface GameDefinition<
  G extends LiveGameState,
  E extends string,
  S,
  Row extends { id: string },
  H extends HubSpec,
  Ev extends EventName<H>,
> {
  /** Names the game's deadlines among all games' timers. */
  kind: string;
  hub: H;
  /** The hub event that carries the state (its payload is the presented view). */
  stateEvent: Ev;
  /** The room of one game on the hub. */
  room(gameId: string): string;
  store: GameStore<G, Row>;
  /** The message answered for an unknown game. */
  notFoundMessage: string;
  /** Status code and user-facing message of each refusal of the rules. */
  refusals: Record<E, readonly [number, string]>;
  /** The rule run when a stored deadline of the game comes. */
  onDeadline(game: G, at: { version: number; now: number }): Outcome<G, E, S>;
  /**
   * Pays (through the ledger) or records a settlement, in the transaction that made it; may queue
   * its own after-commit emits (to the winner, to the admins) on `after`. `by`: whose action made it
   * (null for a deadline), so the game can record who ended it and the prize gate can judge them.
   */
  settle?(tx: Tx, row: Row, settlement: S, after: AfterCommit, by: Viewer | null): Promise<void>;
  /**
   * Queues the game's other events of a change for after the commit (a sound, a case opened),
   * comparing the state before and after; its emits go where the game says (room, user, admins).
   */
  announce?(change: { before: G; after: G; row: Row }, after: AfterCommit): void;
  /** The saved state as each audience may see it. */
  present(db: DbOrTx, row: Row): Promise<AudienceViews<Unstamped<EventPayload<H, Ev> & LiveStateView>>>;
  /**
   * Reads (`view`) may reuse a presentation of the same saved row for `ms`: for a game whose
   * presentation is its row and nothing that changes often besides (a name, an avatar). `stamp`
   * names one saved row: it must change with every save (the version and the save's time).
   */
  presentCache?: { ms: number; stamp(row: Row): string };
}

type Presented<V> = Promise<AudienceViews<V>>;

/** Instrumentation points for tests (a race between two actions, a failure at a given step). */
export interface RunnerHooks {
  /** Runs inside the action's transaction, right after the game row was read (and locked). */
  afterLock?(tx: Tx, kind: string, gameId: string): Promise<void>;
}

export interface EngineDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  realtime: Realtime;
  timers: GameTimers;
  hooks: RunnerHooks;
}

/** What the action did: the saved row and the state as the acting viewer sees it. */
export interface ActResult<Row, V> {
  row: Row;
  view: V;
}

export class GameRunner<
  G extends LiveGameState,
  E extends string,
  S,
  Row extends { id: string },
  H extends HubSpec,
  Ev extends EventName<H>,
> {
  /** Recent presentations for reads, per game (definition.presentCache). */
  private readonly presented: RecentPromises<AudienceViews<Unstamped<EventPayload<H, Ev> & LiveStateView>>> | null;

  constructor(
    private readonly deps: EngineDeps,
    readonly definition: GameDefinition<G, E, S, Row, H, Ev>,
  ) {
    this.presented = definition.presentCache ? new RecentPromises(definition.presentCache.ms) : null;
  }

  private stamp<V>(view: V): V & { serverTime: string } {
    return { ...view, serverTime: this.deps.clock.now().toISOString() };
  }

  refused(error: E): AppError {
    const [status, message] = this.definition.refusals[error];
    return new AppError(status, message);
  }

  /** The view of one viewer among the presented ones. */
  pick<V>(views: AudienceViews<V>, viewer: Viewer | null): V {
    const own = viewer?.userId ? views.users?.get(viewer.userId) : undefined;
    if (own !== undefined) return own;
    if (viewer?.isAdmin && views.admin !== undefined) return views.admin;
    return views.watcher;
  }

  /** The current state as `viewer` may see it (no lock: a read). */
  async view(row: Row, viewer: Viewer | null): Promise<EventPayload<H, Ev>> {
    return this.stamp(this.pick(await this.presentForRead(row), viewer)) as EventPayload<H, Ev>;
  }

  /**
   * The presentation of a row read outside a transaction: shared by the reads of the same saved row
   * for `presentCache.ms` (a link drop's visitors all ask for the same state at once), made anew
   * for any other row. Only what the database holds is shared (the row is each read's own).
   */
  private presentForRead(row: Row): Presented<Unstamped<EventPayload<H, Ev> & LiveStateView>> {
    const cache = this.definition.presentCache;
    const present = () => this.definition.present(this.deps.db, row);
    return cache && this.presented ? this.presented.get(row.id, cache.stamp(row), present) : present();
  }

  find(gameId: string): Promise<Row | null> {
    return this.definition.store.find(this.deps.db, gameId);
  }

  /**
   * One action: lock, `decide` (which may refuse by throwing, e.g. for a viewer who may not act),
   * save, settle, schedule, present; emit after commit. `alsoInTransaction` adds work to the same
   * transaction (an audit row). Answers the state as `viewer` sees it.
   */
  act(
    gameId: string,
    viewer: Viewer | null,
    decide: (game: G, row: Row) => Outcome<G, E, S>,
    alsoInTransaction?: (tx: Tx, before: Row, after: Row) => Promise<void>,
  ): Promise<ActResult<Row, EventPayload<H, Ev>>> {
    return transactionThen(
      this.deps.db,
      async (tx, after) => {
        const row = await this.lock(tx, gameId);
        const game = this.definition.store.toGame(row);
        const outcome = decide(game, row);
        if (!outcome.ok) throw this.refused(outcome.error);
        if (outcome.game === game) {
          const views = await this.definition.present(tx, row);
          return { row, view: this.stamp(this.pick(views, viewer)) as EventPayload<H, Ev> };
        }
        const { row: saved, views } = await this.apply(tx, after, row, outcome, viewer);
        await alsoInTransaction?.(tx, row, saved);
        return { row: saved, view: this.stamp(this.pick(views, viewer)) as EventPayload<H, Ev> };
      },
      this.deps.log,
    );
  }

  /** The timer handler: a stored deadline of this game came (registered by the engine). */
  async fireDeadline(tx: Tx, gameId: string, version: number, after: AfterCommit): Promise<FireResult> {
    const row = await this.definition.store.lock(tx, gameId);
    if (!row) return 'done';
    await this.deps.hooks.afterLock?.(tx, this.definition.kind, gameId);
    const game = this.definition.store.toGame(row);
    const outcome = this.definition.onDeadline(game, { version, now: this.deps.clock.now().getTime() });
    if (!outcome.ok) {
      if (outcome.error === 'not_due' && game.phaseEndsAt !== null) return { notBefore: new Date(game.phaseEndsAt) };
      return 'done'; // stale: the game moved on (a later phase, cancelled) since it was set
    }
    if (outcome.game !== game) await this.apply(tx, after, row, outcome, null);
    return 'done';
  }

  private async lock(tx: Tx, gameId: string): Promise<Row> {
    const row = await this.definition.store.lock(tx, gameId);
    if (!row) throw notFound(this.definition.notFoundMessage);
    await this.deps.hooks.afterLock?.(tx, this.definition.kind, gameId);
    return row;
  }

  /** Save → settle → schedule → present; the emit is queued for after the commit. */
  private async apply(
    tx: Tx,
    after: AfterCommit,
    row: Row,
    outcome: Change<Outcome<G, E, S>>,
    by: Viewer | null,
  ): Promise<{ row: Row; views: AudienceViews<Unstamped<EventPayload<H, Ev> & LiveStateView>> }> {
    const { definition, deps } = this;
    const saved = await definition.store.save(tx, row, outcome.game, deps.clock.now());
    if (outcome.settlement !== null && definition.settle) {
      await definition.settle(tx, saved, outcome.settlement, after, by);
    }
    if (outcome.deadline !== null && outcome.game.phaseVersion !== null) {
      await deps.timers.schedule(tx, after, {
        kind: definition.kind,
        subjectId: this.idOf(saved),
        version: outcome.game.phaseVersion,
        dueAt: new Date(outcome.deadline),
      });
    }
    definition.announce?.({ before: definition.store.toGame(row), after: outcome.game, row: saved }, after);
    const views = await definition.present(tx, saved);
    const room = definition.room(this.idOf(saved));
    after.push(() => {
      const stamped: AudienceViews<EventPayload<H, Ev>> = {
        watcher: this.stamp(views.watcher) as EventPayload<H, Ev>,
        ...(views.admin !== undefined ? { admin: this.stamp(views.admin) as EventPayload<H, Ev> } : {}),
        ...(views.users
          ? { users: new Map([...views.users].map(([id, v]) => [id, this.stamp(v) as EventPayload<H, Ev>])) }
          : {}),
      };
      deps.realtime.emitPerAudience(definition.hub, room, definition.stateEvent, stamped);
    });
    return { row: saved, views };
  }

  private idOf(row: Row): string {
    return row.id;
  }
}
