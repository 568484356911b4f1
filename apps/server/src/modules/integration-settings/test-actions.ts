/**
 * Admin → Go live's test buttons: a line posted to the Kick chat at once as the account the outgoing
 * chat queue posts with (`app.chatOut.postNow`, docs/features/kick-chat-queue.md), and a direct message to the signed-in
 * admin through the Discord bot. Each reports what happened in words the admin can act on.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '../../db/schema/users';
import { siteNameNow } from '../site/service';

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 300);

export async function sendTestMessage(
  app: FastifyInstance,
): Promise<{ result: 'posted' | 'not-connected' | 'failed'; message: string }> {
  const bot = app.kickBot;
  if (!bot) {
    return {
      result: 'not-connected',
      message: 'No Kick app: enter its keys on Admin → Settings → Integrations, then connect the chat bot.',
    };
  }
  const site = await siteNameNow(app);
  try {
    const posted = await app.chatOut.postNow(`${site} test message: the chat bot can post here.`);
    if (posted.posted) return { result: 'posted', message: 'Posted to the Kick chat.' };
    if (posted.reason === 'not-connected') {
      return { result: 'not-connected', message: 'The chat bot is not connected: connect it on Admin → Integrations.' };
    }
    if (posted.reason === 'wrong-account') {
      return {
        result: 'failed',
        message: 'The connected account is not the channel’s: connect the streamer’s account, or choose the bot-account mode.',
      };
    }
    return { result: 'failed', message: `The chat bot's token could not be used: ${posted.detail ?? 'reconnect it'}.` };
  } catch (err) {
    app.log.warn({ err }, 'go-live test message failed');
    return { result: 'failed', message: `Kick refused the message: ${describe(err)}` };
  }
}

export async function sendTestDm(
  app: FastifyInstance,
  adminId: string,
): Promise<{ result: 'sent' | 'not-set-up' | 'not-linked' | 'failed'; message: string }> {
  const sender = app.discordBroadcasts.sender();
  if (!sender) {
    return {
      result: 'not-set-up',
      message: 'No Discord bot token: enter it on Admin → Settings → Integrations.',
    };
  }
  const [me] = await app.db.select({ discordId: users.discordId }).from(users).where(eq(users.id, adminId));
  if (!me?.discordId) {
    return {
      result: 'not-linked',
      message: 'Your account has no linked Discord: link it in your Profile (your name at the top right → Profile), then try again.',
    };
  }
  const outcome = await sender.send(
    me.discordId,
    `${await siteNameNow(app)} test message: the Discord bot can reach you.`,
  );
  if (outcome.ok) {
    // The Integrations page's "Bot (direct messages)" row: the bot works.
    app.integrationStatus.succeeded('discord.bot', 'test message sent');
    return { result: 'sent', message: 'Sent: check your Discord direct messages.' };
  }
  app.log.warn({ reason: outcome.reason, detail: outcome.detail }, 'go-live test DM failed');
  const why =
    outcome.reason === 'dms_closed' || outcome.reason === 'no_mutual_guild'
      ? 'Discord will not deliver it: share a server with the bot and allow direct messages from its members.'
      : outcome.reason === 'unauthorized'
        ? 'Discord refused the bot token (401): check it on Admin → Settings → Integrations.'
        : outcome.unreached
          ? `Discord could not be reached from the server (${outcome.detail}): check its internet access, then try again.`
          : `Discord answered: ${outcome.detail}`;
  if (outcome.reason === 'unauthorized' || outcome.unreached) app.integrationStatus.failed('discord.bot', why);
  return { result: 'failed', message: why };
}
