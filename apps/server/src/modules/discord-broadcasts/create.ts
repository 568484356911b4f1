/**
 * Starting a broadcast: the audience is resolved and written with the job in one transaction,
 * audited with it. Recipients without a Discord link fail at once; those whose DMs were found
 * closed before are skipped at once (no request to Discord). The rest stay pending for the worker.
 */
import { noAudience, type SendDiscordMessageBody } from '@kickback/common/http/discord';
import type { Db, DbOrTx } from '../../db/client';
import { discordBroadcastRecipients, discordBroadcasts } from '../../db/schema/discord-broadcasts';
import { badRequest } from '../../lib/errors';
import { recordAudit, type Actor } from '../audit/service';
import { resolveAudience, type AudienceChoice, type Recipient } from './audience';

const INSERT_CHUNK = 1000;

export interface CreatedBroadcast {
  id: string;
  total: number;
  pending: number;
}

export async function createBroadcast(
  db: Db,
  actor: Actor,
  input: Required<Pick<SendDiscordMessageBody, 'message'>> & AudienceChoice,
  now: Date,
): Promise<CreatedBroadcast> {
  return db.transaction(async (tx) => {
    const recipients = await resolveAudience(tx, input, now);
    if (recipients.length === 0) {
      const chose =
        input.userIds.length > 0 ||
        input.isAllDiscordLinkedUsers ||
        input.isIncludeClashActiveUsers ||
        input.isIncludeClashNonActiveUsers;
      throw chose
        ? badRequest('No Discord-linked users match the chosen audience.')
        : badRequest(noAudience, 'userIds');
    }
    const audience = {
      pickedUsers: input.userIds.length,
      isAllDiscordLinkedUsers: input.isAllDiscordLinkedUsers,
      isIncludeClashActiveUsers: input.isIncludeClashActiveUsers,
      isIncludeClashNonActiveUsers: input.isIncludeClashNonActiveUsers,
    };
    return writeBroadcast(tx, actor, input.message, audience, recipients, now);
  });
}

/**
 * Writes a broadcast job and its recipients in the caller's transaction, audited; the worker sends
 * it once that commits (modules/discord-broadcasts/service.ts queues one from another module).
 */
export async function writeBroadcast(
  tx: DbOrTx,
  actor: Actor,
  message: string,
  audience: Record<string, unknown>,
  recipients: readonly Recipient[],
  now: Date,
): Promise<CreatedBroadcast> {
  const rows = recipients.map((r) => {
    const outcome = !r.discordId
      ? { status: 'failed' as const, reason: 'not_linked' }
      : r.dmClosed
        ? { status: 'skipped' as const, reason: 'dms_closed' }
        : { status: 'pending' as const, reason: null };
    return {
      userId: r.userId,
      username: r.username,
      discordId: r.discordId,
      discordUsername: r.discordUsername,
      ...outcome,
      doneAt: outcome.status === 'pending' ? null : now,
    };
  });
  const pending = rows.filter((r) => r.status === 'pending').length;
  const [job] = await tx
    .insert(discordBroadcasts)
    .values({
      message,
      audience,
      status: pending === 0 ? 'completed' : 'pending',
      total: rows.length,
      failed: rows.length - pending,
      createdBy: actor.userId,
      createdByLabel: actor.label,
      createdAt: now,
      finishedAt: pending === 0 ? now : null,
    })
    .returning({ id: discordBroadcasts.id });
  if (!job) throw new Error('broadcast insert returned nothing');
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await tx
      .insert(discordBroadcastRecipients)
      .values(rows.slice(i, i + INSERT_CHUNK).map((r) => ({ ...r, broadcastId: job.id })));
  }
  await recordAudit(tx, actor, {
    action: 'discord.broadcast',
    targetType: 'discord_broadcast',
    targetId: job.id,
    after: {
      message: message.length > 200 ? `${message.slice(0, 200)}…` : message,
      ...audience,
      recipients: rows.length,
      skipped: rows.length - pending,
    },
  });
  return { id: job.id, total: rows.length, pending };
}
