/**
 * The outside services whose state the Integrations page shows, and the state kept for each: one
 * module that both this process's status (./status.ts) and the shared one (./shared-status.ts) use.
 */
export const STATUS_SOURCES = [
  'steam',
  'kick.webhooks',
  'kick.publicKey',
  'kick.subscriptions',
  'kick.websocket',
  'kick.bot',
  'discord.oauth',
  'discord.bot',
] as const;
export type StatusSource = (typeof STATUS_SOURCES)[number];

export interface SourceState {
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  lastFailure: string | null;
  /** True while the source is known not to work (after a failure, until the next success). */
  down: boolean;
  nextAttemptAt: Date | null;
  /** A short fact about the last success ("3 subscriptions", "chatrooms.668.v2"). */
  detail: string | null;
}
