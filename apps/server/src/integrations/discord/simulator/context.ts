import type { SimulatedBot } from './bot-state';
import type { SimulatedDiscordDirectory } from './directory';
import type { SimulatedGuild } from './guild-state';
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
  /** Whether the OAuth side is simulated (users sign in through it). */
  oauth: boolean;
  /** The streamer's server, its roles and channels (docs/features/discord-roles.md). */
  guild: SimulatedGuild;
  /** Our bot's user id (its member in the server). */
  botUserId: string;
  /** The bot token the simulator accepts; null when the bot side is not simulated. */
  botToken: string | null;
  now(): number;
}
