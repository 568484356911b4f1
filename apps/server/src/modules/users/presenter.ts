import type { AuthUser } from '@kickback/common/http/auth';
import { decimalToNumber } from '@kickback/common/money';
import type { UserRow } from '../../db/schema/users';

/** The auth user of docs/product.md#site-entities, shaped from a user row. */
export function toAuthUser(u: UserRow): AuthUser {
  return {
    isAuthenticated: true,
    openId: u.id,
    steamId: u.steamId,
    role: u.role,
    username: u.username,
    avatarUrl: u.avatarUrl,
    points: decimalToNumber(u.points),
    gems: decimalToNumber(u.gems),
    clashId: u.clashId,
    rustMagicId: u.rustMagicId,
    roobetName: u.roobetName,
    casesId: u.casesId,
    kickId: u.kickId,
    kickUsername: u.kickUsername,
    discordUser: u.discordId ? { id: u.discordId, username: u.discordUsername ?? '' } : null,
    showNameOnBoards: u.showNameOnBoards,
    ageConfirmed: u.ageConfirmedAt !== null,
    language: u.language,
  };
}
