/**
 * Linking a Kick account: the site hands a signed-in user a 6-character code valid 5 minutes
 * (`GET /api/User/link/kick`); the user types `!verify <code>` in the streamer's chat; the chat
 * pipeline's verify handler links the sender's Kick id and name to the code's owner. A code works
 * once; a user has one live code at a time; one Kick account belongs to at most one site user.
 */
import { randomInt } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, or } from 'drizzle-orm';
import { KICK_LINK_CODE_LENGTH, KICK_LINK_CODE_TTL_MS, type KickLinkKey } from '@kickback/common/http/accounts';
import type { Db } from '../../db/client';
import { kickLinkCodes } from '../../db/schema/accounts';
import { users, type UserRow } from '../../db/schema/users';
import { isUniqueViolation } from '../../lib/db-errors';
import type { Locale } from '@kickback/common/i18n/locales';
import { conflict } from '../../lib/errors';
import { said, t } from '../../lib/i18n';
import type { ChatHandler } from '../chat/service';
import { chatLocale } from '../languages/service';
import { siteNameNow } from '../site/service';
import { payPendingOnLink } from '../support-rewards/service';

/** No 0/O or 1/I: people copy these by eye too. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function newCode(): string {
  let code = '';
  for (let i = 0; i < KICK_LINK_CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** A live code with less than this left is replaced rather than handed out again. */
const REUSE_MIN_LEFT_MS = 60 * 1000;

/**
 * The user's live code (asking again while one has a minute or more left gives the same code, so a
 * command already copied keeps working), or a new one that replaces any older code.
 */
export async function createKickLinkCode(db: Db, user: UserRow, now: Date): Promise<KickLinkKey> {
  if (user.kickId) throw conflict(said('common:kickAlreadyLinked'));
  return db.transaction(async (tx) => {
    // One request per user at a time, so two tabs cannot make two codes.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
    const [live] = await tx
      .select()
      .from(kickLinkCodes)
      .where(
        and(
          eq(kickLinkCodes.userId, user.id),
          isNull(kickLinkCodes.usedAt),
          gt(kickLinkCodes.expiresAt, new Date(now.getTime() + REUSE_MIN_LEFT_MS)),
        ),
      )
      .orderBy(desc(kickLinkCodes.expiresAt))
      .limit(1);
    if (live) return { key: live.code, expiresAt: live.expiresAt.toISOString() };

    // The user's previous code stops working; expired codes of anyone go too.
    await tx.delete(kickLinkCodes).where(or(eq(kickLinkCodes.userId, user.id), lt(kickLinkCodes.expiresAt, now)));
    const expiresAt = new Date(now.getTime() + KICK_LINK_CODE_TTL_MS);
    for (let attempt = 0; attempt < 5; attempt++) {
      const code = newCode();
      const inserted = await tx
        .insert(kickLinkCodes)
        .values({ code, userId: user.id, createdAt: now, expiresAt })
        .onConflictDoNothing()
        .returning({ code: kickLinkCodes.code });
      if (inserted.length === 1) return { key: code, expiresAt: expiresAt.toISOString() };
    }
    throw new Error('could not find a free Kick link code');
  });
}

export type RedeemOutcome =
  | { kind: 'linked'; owner: UserRow }
  | { kind: 'already-yours'; owner: UserRow }
  | { kind: 'invalid' }
  | { kind: 'kick-taken' }
  | { kind: 'owner-has-kick'; owner: UserRow };

/** `!verify <code>` from a Kick user. */
export async function redeemKickLinkCode(
  db: Db,
  rawCode: string,
  kick: { kickUserId: string; kickUsername: string },
  now: Date,
): Promise<RedeemOutcome> {
  const code = rawCode.trim().toUpperCase();
  if (code.length !== KICK_LINK_CODE_LENGTH) return { kind: 'invalid' };
  try {
    return await db.transaction(async (tx): Promise<RedeemOutcome> => {
      const [row] = await tx.select().from(kickLinkCodes).where(eq(kickLinkCodes.code, code)).for('update');
      if (!row || row.usedAt || row.expiresAt <= now) return { kind: 'invalid' };
      const [owner] = await tx.select().from(users).where(eq(users.id, row.userId)).for('update');
      if (!owner) return { kind: 'invalid' };
      const markUsed = () =>
        tx
          .update(kickLinkCodes)
          .set({ usedAt: now, usedByKickId: kick.kickUserId })
          .where(and(eq(kickLinkCodes.code, code), isNull(kickLinkCodes.usedAt)));
      if (owner.kickId === kick.kickUserId) {
        await markUsed();
        return { kind: 'already-yours', owner };
      }
      if (owner.kickId) return { kind: 'owner-has-kick', owner };
      const [holder] = await tx.select({ id: users.id }).from(users).where(eq(users.kickId, kick.kickUserId));
      if (holder) return { kind: 'kick-taken' };
      const [linked] = await tx
        .update(users)
        .set({ kickId: kick.kickUserId, kickUsername: kick.kickUsername, kickLinkedAt: now })
        .where(and(eq(users.id, owner.id), isNull(users.kickId)))
        .returning();
      if (!linked) return { kind: 'owner-has-kick', owner };
      await markUsed();
      // Support rewards kept for this Kick account while it was not linked (within the window).
      await payPendingOnLink(tx, linked.id, kick.kickUserId, now);
      return { kind: 'linked', owner: linked };
    });
  } catch (err) {
    // Two site users redeeming for the same Kick account at once: the UNIQUE(kick_id) decides.
    if (isUniqueViolation(err)) return { kind: 'kick-taken' };
    throw err;
  }
}

/** What `!verify` answers, in the chat's language (docs/features/languages.md#the-chat-bot). */
function verifyAnswer(outcome: RedeemOutcome, site: string, locale: Locale): string {
  switch (outcome.kind) {
    case 'linked':
      return t(locale, 'bot:verifyLinked', { user: outcome.owner.username, site });
    case 'already-yours':
      return t(locale, 'bot:verifyAlreadyYours', { site });
    case 'invalid':
      return t(locale, 'bot:verifyInvalid', { site });
    case 'kick-taken':
      return t(locale, 'bot:verifyKickTaken', { site });
    case 'owner-has-kick':
      return t(locale, 'bot:verifyOwnerHasKick', { site });
  }
}

const VERIFY_COMMAND = /^!verify(?:\s+(\S+))?(?:\s|$)/i;

/** The chat handler for `!verify <code>`: links, and says in chat what happened. */
export function verifyHandler(): ChatHandler {
  return {
    name: 'verify',
    // A command: before the observers, so a `!verify` earns no chat points (chat/service.ts).
    order: 100,
    async handle(message, { app }) {
      const match = VERIFY_COMMAND.exec(message.content.trim());
      if (!match) return false;
      const siteName = await siteNameNow(app); // the name now: a renamed site is named right
      const code = match[1];
      if (!code) {
        await app.chat.reply(message, t(chatLocale(app), 'bot:verifyHint', { site: siteName }));
        return true;
      }
      const outcome = await redeemKickLinkCode(app.db, code, message, app.clock.now());
      // The chat lookup of every process follows the new link from the next message on.
      if (outcome.kind === 'linked') {
        await app.chat.linkChanged(outcome.owner.id);
        app.supportRewards.announcer.schedule(); // rewards that waited for this link, if any
      }
      const text = verifyAnswer(outcome, siteName, chatLocale(app));
      app.log.info(
        {
          kickUserId: message.kickUserId,
          outcome: outcome.kind,
          userId: 'owner' in outcome ? outcome.owner.id : undefined,
        },
        'kick verify',
      );
      await app.chat.reply(message, text);
      return true;
    },
    mayAct: (message) => VERIFY_COMMAND.test(message.content.trim()),
  };
}
