/**
 * The chat pipeline every source feeds (Kick webhooks, the Kick chat websocket, the simulator
 * through the webhook): claim the message id (a row in chat_messages, so each message is processed
 * once even with several server processes), record the sender's activity, find the site user who
 * linked the sender's Kick account, then run the registered handlers (service.ts) in order until one
 * takes the message as its command. A failing handler is logged and the others still run.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { chatMessages } from '../../db/schema/chat';
import { users, type UserRow } from '../../db/schema/users';
import { recordChatActivity } from './activity';
import type { ChatMessage } from '../../integrations/kick/chat-message';
import type { ChatHandler, ChatSource, PipelineResult } from './service';

const MAX_CONTENT = 2000;

async function findLinkedUser(app: FastifyInstance, message: ChatMessage): Promise<UserRow | null> {
  const [user] = await app.db.select().from(users).where(eq(users.kickId, message.kickUserId));
  if (!user) return null;
  if (user.kickUsername === message.kickUsername) return user;
  // Kick names can change; the link follows the account id, the name follows Kick.
  const [renamed] = await app.db
    .update(users)
    .set({ kickUsername: message.kickUsername })
    .where(eq(users.id, user.id))
    .returning();
  return renamed ?? user;
}

export async function processChatMessage(
  app: FastifyInstance,
  handlers: readonly ChatHandler[],
  message: ChatMessage,
  source: ChatSource,
): Promise<PipelineResult> {
  const receivedAt = app.clock.now();
  const claimed = await app.db
    .insert(chatMessages)
    .values({
      messageId: message.messageId,
      source,
      kickUserId: message.kickUserId,
      kickUsername: message.kickUsername,
      color: message.color,
      isSubscriber: message.isSubscriber,
      badges: message.badges,
      content: message.content.slice(0, MAX_CONTENT),
      sentAt: message.sentAt,
      receivedAt,
    })
    .onConflictDoNothing()
    .returning({ messageId: chatMessages.messageId });
  if (claimed.length === 0) return { duplicate: true, handledBy: null, linkedUserId: null, errors: [] };

  await recordChatActivity(app.db, message, receivedAt);
  const linkedUser = await findLinkedUser(app, message);
  const ctx = { app, linkedUser };
  let handledBy: string | null = null;
  const errors: string[] = [];
  for (const handler of handlers) {
    try {
      if (await handler.handle(message, ctx)) {
        handledBy = handler.name;
        break;
      }
    } catch (err) {
      errors.push(handler.name);
      app.log.error({ err, handler: handler.name, messageId: message.messageId }, 'chat handler failed');
    }
  }
  await app.db
    .update(chatMessages)
    .set({ linkedUserId: linkedUser?.id ?? null, handledBy, errors, processedAt: app.clock.now() })
    .where(eq(chatMessages.messageId, message.messageId));
  return { duplicate: false, handledBy, linkedUserId: linkedUser?.id ?? null, errors };
}
