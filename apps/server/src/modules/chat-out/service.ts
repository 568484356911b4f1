/**
 * The outgoing Kick chat queue's public surface (`app.chatOut`): every bot message goes through
 * `enqueue` with its kind (docs/features/kick-chat-queue.md). `ack`s of one topic and `thanks` of
 * one topic fold into one message ("Bets taken: @a 500 on 1 · @b 1.2k on 2"), `personal` answers
 * to one person fold per person, `announce` goes out alone and is never dropped.
 */
import type { KickChatQueue } from '@kickback/common/http/integrations';
import type { ChatOut, ChatPoster, ChatQueueStats, PostingMode } from '../../integrations/kick/chat-queue';

export type { ChatOut, PostingMode } from '../../integrations/kick/chat-queue';

export interface ChatOutService {
  /** Queues bot messages; a listening server posts them paced (tests call `pump`). */
  enqueue(...messages: ChatOut[]): Promise<void>;
  /** Posts what the pace, the lease and Kick allow now; how many messages went out. */
  pump(): Promise<number>;
  stats(): Promise<ChatQueueStats>;
  /** The queue as Admin → Integrations shows it. */
  overview(): Promise<KickChatQueue>;
  setMode(mode: PostingMode): Promise<void>;
  /**
   * Posts one message at once as the chosen account, outside the queue and its pace (Admin → Go
   * live's "Send a test message": the admin waits for Kick's answer).
   */
  postNow(content: string): ReturnType<ChatPoster>;
}

declare module 'fastify' {
  interface FastifyInstance {
    chatOut: ChatOutService;
  }
}
