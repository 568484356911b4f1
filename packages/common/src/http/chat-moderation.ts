/**
 * Chat moderation filters (docs/features/chat-moderation.md): the settings Admin → Moderation
 * edits (every filter off by default, each with its own action) and the moderation log.
 */
import { z } from 'zod';
import { regexProblem } from '../chat-moderation/regex-safety';
import { defineEndpoint, pageNumber, pageOf } from './endpoint';

export const MODERATION_ACTIONS = ['delete', 'timeout', 'ban'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];
/** What the log records: an action, or the warning a first offence got instead. */
export type ModerationLogAction = ModerationAction | 'warn';

export const MODERATION_RULES = [
  'links',
  'caps',
  'repeatedChars',
  'repeatedMessages',
  'length',
  'emotes',
  'bannedWords',
  'regex',
] as const;
export type ModerationRule = (typeof MODERATION_RULES)[number];

export const MODERATION_RULE_LABELS: Record<ModerationRule, string> = {
  links: 'Links',
  caps: 'Capital letters',
  repeatedChars: 'Repeated characters',
  repeatedMessages: 'Repeated messages',
  length: 'Message length',
  emotes: 'Emote spam',
  bannedWords: 'Banned words',
  regex: 'Regular expressions',
};

/** Kick's longest timeout is a week. */
export const TIMEOUT_MAX_MINUTES = 10_080;
export const MODERATION_LIST_MAX = 200;

const int = (min: number, max: number, what: string) =>
  z
    .number({ error: `Enter ${what} as a whole number.` })
    .int(`Enter ${what} as a whole number.`)
    .min(min, `Enter ${what} of at least ${min}.`)
    .max(max, `Enter ${what} of at most ${max}.`);

const base = {
  enabled: z.boolean(),
  action: z.enum(MODERATION_ACTIONS),
  timeoutMinutes: int(1, TIMEOUT_MAX_MINUTES, 'a timeout in minutes'),
  /** A sender's first offence (none logged in the last 24 hours) gets a warning in chat instead. */
  warnFirst: z.boolean(),
};

const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(\*\.)?([a-z0-9-]+\.)+[a-z]{2,}$/, 'Enter domains like kick.com or *.example.com.');
const word = z
  .string()
  .trim()
  .min(1, 'A banned word cannot be empty.')
  .max(100, 'A banned word is at most 100 characters.');
export const moderationPattern = z.string().superRefine((p, ctx) => {
  const problem = regexProblem(p);
  if (problem)
    ctx.addIssue({ code: 'custom', message: `The pattern ${JSON.stringify(p.slice(0, 60))} is refused: ${problem}.` });
});

const list = <T extends z.ZodType>(item: T, what: string) =>
  z.array(item).max(MODERATION_LIST_MAX, `At most ${MODERATION_LIST_MAX} ${what}.`);

export const moderationSettings = z.object({
  links: z.object({
    ...base,
    allowedDomains: list(domain, 'allowed domains'),
    /** How long a moderator's `!permit <user>` lets that user post one link. */
    permitSeconds: int(10, 3600, 'a permit length in seconds'),
  }),
  caps: z.object({
    ...base,
    /** Lines shorter than this (letters counted) are never checked. */
    minLetters: int(1, 500, 'a minimum of letters'),
    maxPercent: int(1, 100, 'a percentage'),
  }),
  repeatedChars: z.object({ ...base, maxRun: int(2, 100, 'a run of characters') }),
  repeatedMessages: z.object({
    ...base,
    /** The same text from the same sender more than `maxRepeats` times within the window. */
    maxRepeats: int(1, 20, 'a number of repeats'),
    windowSeconds: int(5, 3600, 'a window in seconds'),
  }),
  length: z.object({ ...base, maxLength: int(1, 500, 'a length') }),
  emotes: z.object({ ...base, maxEmotes: int(1, 100, 'a number of emotes') }),
  bannedWords: z.object({ ...base, words: list(word, 'banned words') }),
  regex: z.object({ ...base, patterns: list(moderationPattern, 'patterns').max(20, 'At most 20 patterns.') }),
  immunity: z.object({
    /** Badge types besides moderator, broadcaster and VIP (always immune), e.g. og, founder, subscriber. */
    badges: list(
      z
        .string()
        .trim()
        .toLowerCase()
        .regex(/^[a-z_]{2,30}$/, 'Enter badge types like og or founder.'),
      'badges',
    ),
  }),
});
export type ModerationSettings = z.infer<typeof moderationSettings>;

const off = { enabled: false, action: 'delete', timeoutMinutes: 10, warnFirst: false } as const;
export const DEFAULT_MODERATION_SETTINGS: ModerationSettings = {
  links: { ...off, allowedDomains: ['kick.com'], permitSeconds: 60 },
  caps: { ...off, minLetters: 10, maxPercent: 70 },
  repeatedChars: { ...off, maxRun: 10 },
  repeatedMessages: { ...off, maxRepeats: 2, windowSeconds: 60 },
  length: { ...off, maxLength: 400 },
  emotes: { ...off, maxEmotes: 10 },
  bannedWords: { ...off, words: [] },
  regex: { ...off, patterns: [] },
  immunity: { badges: ['og'] },
};

export const moderationSettingsView = z.object({
  settings: moderationSettings,
  updatedAt: z.string().nullable(),
  /** The scopes the connected Kick bot token lacks for moderation (reconnect on Integrations). */
  missingScopes: z.array(z.string()),
  botConnected: z.boolean(),
});
export type ModerationSettingsView = z.infer<typeof moderationSettingsView>;

export const moderationLogEntry = z.object({
  id: z.number(),
  messageId: z.string(),
  kickUserId: z.string(),
  kickUsername: z.string(),
  rule: z.enum(MODERATION_RULES),
  content: z.string(),
  action: z.enum([...MODERATION_ACTIONS, 'warn']),
  timeoutMinutes: z.number().nullable(),
  /** done: Kick accepted (or the warning was queued); failed: Kick refused or could not be asked. */
  outcome: z.enum(['pending', 'done', 'failed']),
  kickStatus: z.number().nullable(),
  kickAnswer: z.string().nullable(),
  createdAt: z.string(),
});
export type ModerationLogEntry = z.infer<typeof moderationLogEntry>;

export const moderationEndpoints = {
  get: defineEndpoint({
    method: 'GET',
    path: '/api/admin/moderation',
    access: 'moderator',
    response: moderationSettingsView,
  }),
  update: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/moderation',
    access: 'moderator',
    body: moderationSettings,
    response: z.object({ message: z.string(), view: moderationSettingsView }),
  }),
  log: defineEndpoint({
    method: 'GET',
    path: '/api/admin/moderation/log',
    access: 'moderator',
    query: z.object({ page: pageNumber }),
    response: pageOf(moderationLogEntry),
  }),
};
