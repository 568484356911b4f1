/**
 * The broadcast job's surface for other modules: queue one Discord DM to some users inside the
 * caller's transaction (docs/features/discord.md). Only users with a linked Discord account are
 * written as recipients; the caller kicks the worker (`app.discordBroadcasts.kick()`) after commit.
 */
import type { DbOrTx } from '../../db/client';
import type { Actor } from '../audit/service';
import { resolveAudience } from './audience';
import { type CreatedBroadcast, writeBroadcast } from './create';

/** Null when none of the users has Discord linked (nothing is written). */
export async function queueDirectMessage(
  tx: DbOrTx,
  actor: Actor,
  message: string,
  userIds: readonly string[],
  now: Date,
): Promise<CreatedBroadcast | null> {
  if (userIds.length === 0) return null;
  const audience = {
    userIds,
    isAllDiscordLinkedUsers: false,
    isIncludeClashActiveUsers: false,
    isIncludeClashNonActiveUsers: false,
  };
  const linked = (await resolveAudience(tx, audience, now)).filter((r) => r.discordId !== null);
  if (linked.length === 0) return null;
  return writeBroadcast(tx, actor, message, { pickedUsers: linked.length, source: actor.label }, linked, now);
}
