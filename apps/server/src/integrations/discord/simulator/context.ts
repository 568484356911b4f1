import type { SimulatedBot } from './bot-state';
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
  /** Our bot: its DM channels, the messages it posted, users with DMs closed. */
  bot: SimulatedBot;
  /** The bot token the simulator accepts; null when the bot side is not simulated. */
  botToken: string | null;
  now(): number;
}
