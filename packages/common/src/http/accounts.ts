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
/** Something typed as a number: digits with a sign, a point, a comma or spaces. */
const numberLike = /^[+-]?[\d\s.,]*\d[\d\s.,]*$/;
/** A partner's user number: a whole number from 1, no sign, no leading zero. */
const userNumber = /^[1-9]\d{0,17}$/;
/** Names begin with a letter or a digit (so "-1", the boards' "none", is never an id). */
const startsWell = /^[\p{L}\p{N}]/u;

/**
 * One partner id (trimmed; "" unlinks it). Clash.gg and Cases.gg (one API family) and RustMagic
 * identify a player by a user number or by the username their affiliate rows carry; a value typed
 * as a number must be a real user number (a whole number from 1). Roobet identifies a player by
 * username only. Every id is at most 64 characters, starts with a letter or digit and holds no
 * control characters.
 */
function partnerIdSchema(label: string, shape: string, numbered: boolean) {
  return z
    .string({ error: `${label} must be text.` })
    .trim()
    .max(PARTNER_ID_MAX_LENGTH, `${label} must be at most ${PARTNER_ID_MAX_LENGTH} characters.`)
    .refine((v) => !controlCharacter.test(v), `${label} must not contain control characters.`)
    .refine((v) => v === '' || (numbered && numberLike.test(v) ? userNumber.test(v) : startsWell.test(v)), shape);
}

/** Clash.gg: the user number of its affiliate rows (`userId`) or the player's name there. */
export const clashId = partnerIdSchema(
  'Clash ID',
  'Enter your Clash.gg user number (a whole number from 1, like 4242) or your Clash.gg username.',
  true,
);
/** RustMagic: the player's id or name on its affiliate list. */
export const rustMagicId = partnerIdSchema(
  'RustMagic ID',
  'Enter your RustMagic user number (a whole number from 1) or your RustMagic username.',
  true,
);
/** Roobet: the username its affiliate stats list (`username`). */
export const roobetName = partnerIdSchema(
  'Roobet username',
  'Enter your Roobet username as Roobet shows it; it starts with a letter or a digit.',
  false,
);
/** Cases.gg: the same API family as Clash — a user number or the player's name there. */
export const casesId = partnerIdSchema(
  'Cases ID',
  'Enter your Cases.gg user number (a whole number from 1, like 4242) or your Cases.gg username.',
  true,
);

export const partnerIdSchemas = {
  ClashId: clashId,
  RustMagicId: rustMagicId,
  RoobetName: roobetName,
  CasesId: casesId,
};

/** What is wrong with a partner id, or null when it is fine. Empty means "unlink". */
export function partnerIdProblem(key: PartnerIdKey, value: string): string | null {
  const parsed = partnerIdSchemas[key].safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? `${key} is not valid.`);
}

/** The profile form: every id as typed (trimmed when checked). */
export const partnerIdsForm = z.object(partnerIdSchemas);
export type PartnerIdsFormValues = z.input<typeof partnerIdsForm>;

/**
 * `POST /api/User/ids`: each id is trimmed and checked by its own rule; "" (or null) unlinks it; a
 * field left out stays as it is. Unique per site across users, case-insensitively.
 */
export const partnerIdsBody = z.object({
  ClashId: clashId.nullable().optional(),
  RustMagicId: rustMagicId.nullable().optional(),
  RoobetName: roobetName.nullable().optional(),
  CasesId: casesId.nullable().optional(),
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
