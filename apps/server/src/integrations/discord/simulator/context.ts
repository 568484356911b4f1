import type { SimulatedDiscordDirectory } from './directory';
import type { SimulatorTokens } from './tokens';

/** What the pieces of the Discord simulator share. */
export interface DiscordSimulatorContext {
  directory: SimulatedDiscordDirectory;
  tokens: SimulatorTokens;
  /** The one application the simulator knows: ours. */
  clientId: string;
  clientSecret: string;
  /** Redirect URIs registered for that application. */
  redirectUris: readonly string[];
  now(): number;
}
