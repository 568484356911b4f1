import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { messageBody } from './errors';
import { messages } from '../messages';

/** Partner wagering-site ids a user links (`POST /api/User/ids`), in the order the profile shows them. */
export const partnerIdFields = [
  { key: 'RoobetName', userKey: 'roobetName', label: 'Roobet username' },
  { key: 'ClashId', userKey: 'clashId', label: 'Clash ID' },
  { key: 'RustMagicId', userKey: 'rustMagicId', label: 'RustMagic ID' },
  { key: 'CasesId', userKey: 'casesId', label: 'Cases ID' },
] as const;

export type PartnerIdKey = (typeof partnerIdFields)[number]['key'];

export const PARTNER_ID_MAX_LENGTH = 64;

/** Control, format (zero-width) and line/paragraph separator characters have no place in an id. */
const controlCharacter = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** What is wrong with a (trimmed) partner id, or null when it is fine. Empty means "unlink". */
export function partnerIdProblem(label: string, value: string): string | null {
  if (value.length > PARTNER_ID_MAX_LENGTH) return `${label} must be at most ${PARTNER_ID_MAX_LENGTH} characters.`;
  if (controlCharacter.test(value)) return `${label} must not contain control characters.`;
  return null;
}

// A generous transport cap; the precise rules (and their messages) are partnerIdProblem's.
const partnerIdValue = z.string().max(1000).nullable().optional();

/**
 * `POST /api/User/ids`: each id is trimmed; "" (or null) unlinks it; a field left out stays as it
 * is. Unique per site across users, case-insensitively.
 */
export const partnerIdsBody = z.object({
  ClashId: partnerIdValue,
  RustMagicId: partnerIdValue,
  RoobetName: partnerIdValue,
  CasesId: partnerIdValue,
});
export type PartnerIdsBody = z.infer<typeof partnerIdsBody>;

/** `GET /api/User/unlink?type=kick|discord` (any letter case). */
export const linkedAccountType = z.enum(['kick', 'discord']);
export type LinkedAccountType = z.infer<typeof linkedAccountType>;
export const unlinkQuery = z.object({
  type: z
    .string()
    .transform((v) => v.toLowerCase())
    .pipe(linkedAccountType),
});

/** `GET /api/User/link/kick`: the code to type as `!verify {key}` in the streamer's chat. */
export const KICK_LINK_CODE_LENGTH = 6;
export const KICK_LINK_CODE_TTL_MS = 5 * 60 * 1000;
export const kickLinkKey = z.object({ key: z.string(), expiresAt: z.string() });
export type KickLinkKey = z.infer<typeof kickLinkKey>;

/** The chat command that links a Kick account. */
export function verifyCommand(key: string): string {
  return `!verify ${key}`;
}

/** `POST /api/User/preferences`. */
export const preferencesBody = z.object({ showNameOnBoards: z.boolean() });
export type PreferencesBody = z.infer<typeof preferencesBody>;

/**
 * Where `/auth/discord/callback` sends the browser back: `/link/discord?result=…&returnTo=…`.
 * The page shows the matching message (a code, never free text, travels in the URL).
 */
export const discordLinkResults = [
  'linked',
  'denied',
  'state',
  'taken',
  'already',
  'failed',
  'signin',
  'unavailable',
] as const;
export type DiscordLinkResult = (typeof discordLinkResults)[number];

const discordLinkMessages: Record<DiscordLinkResult, string> = {
  linked: messages.discordLinked,
  denied: messages.discordDenied,
  state: messages.discordStateMismatch,
  taken: messages.discordTaken,
  already: messages.discordAlreadyLinked,
  failed: messages.discordFailed,
  signin: messages.pleaseSignInFirst,
  unavailable: messages.discordUnavailable,
};

/** The message the site shows for each Discord link result (an unknown one reads as a failure). */
export function discordLinkResultMessage(result: string | null): string {
  return (discordLinkResults as readonly string[]).includes(result ?? '')
    ? discordLinkMessages[result as DiscordLinkResult]
    : messages.discordFailed;
}

/** The signed-in user's own accounts. */
export const accountEndpoints = {
  savePartnerIds: defineEndpoint({
    method: 'POST',
    path: '/api/User/ids',
    access: 'user',
    body: partnerIdsBody,
    response: messageBody,
  }),
  kickCode: defineEndpoint({ method: 'GET', path: '/api/User/link/kick', access: 'user', response: kickLinkKey }),
  unlink: defineEndpoint({
    method: 'GET',
    path: '/api/User/unlink',
    access: 'user',
    query: unlinkQuery,
    response: messageBody,
  }),
  savePreferences: defineEndpoint({
    method: 'POST',
    path: '/api/User/preferences',
    access: 'user',
    body: preferencesBody,
    response: messageBody,
  }),
};
