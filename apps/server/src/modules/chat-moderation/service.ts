/**
 * Chat moderation filters, for the other modules and the tests (docs/features/chat-moderation.md):
 * `app.chatModeration`.
 */
import type { ChatMessage } from '../../integrations/kick/chat-message';
import type { CompiledFilters, Verdict } from './filters';

export interface ChatModerationService {
  /** The filters this process judges by now. */
  filters(): CompiledFilters;
  /** Re-reads the saved settings now (after a save; tests). */
  refresh(): Promise<void>;
  /** Acts on a message that broke a rule, as the chat handler does (exactly once per message id). */
  moderate(message: ChatMessage, verdict: Verdict): Promise<void>;
  /** Statements the moderation log's writer has run (claims and outcomes batched; tests read it). */
  logStatements(): number;
}

declare module 'fastify' {
  interface FastifyInstance {
    chatModeration: ChatModerationService;
  }
}
