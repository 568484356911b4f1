/**
 * The fields every live game state carries, whatever the game
 * (docs/architecture.md#the-game-engine): the web's one live-state hook relies on them to drop
 * stale versions and to run countdowns on the server's clock.
 */
import { z } from 'zod';

export const liveStateFields = {
  id: z.string(),
  /** Grows with every change: a client drops any state older than the one it shows. */
  version: z.number(),
  /** End of the current timed phase, ISO time; the countdown runs to it. */
  phaseEndsAt: z.string().nullable(),
  /** The server's time when this state was sent, so clients can correct their clock. */
  serverTime: z.string(),
};

/** What the web's live-state hook needs of a state. */
export interface LiveStateView {
  id: string;
  version: number;
  phaseEndsAt: string | null;
  serverTime: string;
}
