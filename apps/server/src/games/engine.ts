/**
 * The game engine on the app (`app.games`): a game registers its definition once and gets its
 * runner, with its deadlines wired to the durable timers. Registering is the whole server-side
 * plumbing a new live game needs besides its hub handlers.
 */
import type { LiveGameState } from '@kickback/common/games/engine';
import type { EventName, HubSpec } from '@kickback/common/hubs/hub';
import { type EngineDeps, type GameDefinition, GameRunner, type RunnerHooks } from './runner';

export class GameEngine {
  /** Test instrumentation (see RunnerHooks); empty in production. */
  readonly hooks: RunnerHooks;

  constructor(private readonly deps: Omit<EngineDeps, 'hooks'>) {
    this.hooks = {};
  }

  register<
    G extends LiveGameState,
    E extends string,
    S,
    Row extends { id: string },
    H extends HubSpec,
    Ev extends EventName<H>,
  >(definition: GameDefinition<G, E, S, Row, H, Ev>): GameRunner<G, E, S, Row, H, Ev> {
    const runner = new GameRunner({ ...this.deps, hooks: this.hooks }, definition);
    this.deps.timers.register(definition.kind, {
      fire: (tx, gameId, version, after) => runner.fireDeadline(tx, gameId, version, after),
    });
    return runner;
  }
}
