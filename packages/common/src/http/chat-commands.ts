/**
 * Custom chat commands and timers (docs/features/custom-commands.md): the response template's
 * variables (checked the same way by the server when a command is saved and by the page's
 * preview), who may use a command, and the Admin → Commands calls (moderators may edit).
 */
import { z } from 'zod';
import { isAmount } from '../money';
import { defineEndpoint } from './endpoint';

export const COMMAND_NAME_MAX = 30;
export const TEMPLATE_MAX = 400;
export const MAX_ALIASES = 10;
export const MAX_COOLDOWN_S = 86_400;
export const MAX_COMMAND_COST = 1_000_000;

/** Who may use a command, lowest first: each level also lets everyone above it in. */
export const commandPermissions = ['everyone', 'subscriber', 'vip', 'moderator', 'broadcaster'] as const;
export type CommandPermission = (typeof commandPermissions)[number];
export const commandPermissionText: Record<CommandPermission, string> = {
  everyone: 'Everyone',
  subscriber: 'Subscribers (and VIP, moderators, broadcaster)',
  vip: 'VIP or OG badge (and moderators, broadcaster)',
  moderator: 'Moderators (and broadcaster)',
  broadcaster: 'Broadcaster only',
};

/** The level of a Kick sender from the badges on their message (docs/features/custom-commands.md#a-command). */
export function senderLevel(badges: readonly string[], isSubscriber: boolean): CommandPermission {
  const has = (b: string) => badges.includes(b);
  if (has('broadcaster')) return 'broadcaster';
  if (has('moderator')) return 'moderator';
  if (has('vip') || has('og')) return 'vip';
  if (isSubscriber || has('subscriber') || has('founder')) return 'subscriber';
  return 'everyone';
}

export const mayUse = (permission: CommandPermission, level: CommandPermission) =>
  commandPermissions.indexOf(level) >= commandPermissions.indexOf(permission);

/** The pages `{link:<page>}` may name, with their paths on the site. */
export const linkPages: Record<string, string> = {
  home: '/',
  store: '/store',
  leaderboard: '/leaderboard',
  giveaway: '/giveaway',
  raffles: '/raffles',
  hunt: '/hunt',
  calls: '/calls',
  battles: '/battles',
  challenges: '/Challenges',
  rewards: '/DailyRewards',
  live: '/live',
  earn: '/earn',
  linkkick: '/linkkick',
};

/** The template's variables: `{name}` or `{name:argument}`. */
export const templateVariables = {
  user: 'the caller’s Kick name',
  target: 'the first word after the command (without @), else the caller',
  balance: 'the caller’s points (linked accounts)',
  rank: '{rank:<site>}: the caller’s place on that site’s current leaderboard',
  wager: '{wager:<site>}: the caller’s wager on that site’s current leaderboard',
  link: '{link:<page>}: the address of a page of the site',
  uptime: 'how long the stream has been live',
  count: 'how many times the command was used',
  random: '{random:1-100}: a whole number between the two, both included',
} as const;
export type TemplateVariable = keyof typeof templateVariables;

export interface TemplatePart {
  text?: string;
  name?: TemplateVariable;
  arg?: string;
}

const VARIABLE = /\{([a-z]+)(?::([^{}]*))?\}/gi;
const RANDOM_ARG = /^(-?\d{1,9})-(-?\d{1,9})$/;
const NEEDS_ARG = new Set<string>(['rank', 'wager', 'link', 'random']);

/** Splits a template into text and variables; the problems found (unknown variables named). */
export function parseTemplate(
  template: string,
  siteSlugs: readonly string[],
): { parts: TemplatePart[]; problems: string[] } {
  const parts: TemplatePart[] = [];
  const unknown: string[] = [];
  const problems: string[] = [];
  let last = 0;
  for (const m of template.matchAll(VARIABLE)) {
    if (m.index > last) parts.push({ text: template.slice(last, m.index) });
    last = m.index + m[0].length;
    const name = m[1]!.toLowerCase();
    const arg = m[2]?.trim();
    if (!Object.hasOwn(templateVariables, name)) {
      unknown.push(`{${m[1]}}`);
      continue;
    }
    if (NEEDS_ARG.has(name) && !arg) problems.push(`{${name}} needs an argument, like {${name}:${exampleArg(name)}}`);
    else if (!NEEDS_ARG.has(name) && arg !== undefined) problems.push(`{${name}} takes no argument`);
    else if (name === 'random' && arg) {
      const r = RANDOM_ARG.exec(arg);
      if (!r || Number(r[1]) > Number(r[2])) problems.push(`{random:${arg}} must be two whole numbers, low-high`);
    } else if ((name === 'rank' || name === 'wager') && arg && !siteSlugs.includes(arg.toLowerCase())) {
      problems.push(`{${name}:${arg}}: unknown site (one of ${siteSlugs.join(', ')})`);
    } else if (name === 'link' && arg && !Object.hasOwn(linkPages, arg.toLowerCase())) {
      problems.push(`{link:${arg}}: unknown page (one of ${Object.keys(linkPages).join(', ')})`);
    }
    parts.push({ name: name as TemplateVariable, ...(arg ? { arg: arg.toLowerCase() } : {}) });
  }
  if (last < template.length) parts.push({ text: template.slice(last) });
  if (unknown.length > 0) problems.unshift(`Unknown variable${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
  return { parts, problems };
}

function exampleArg(name: string): string {
  if (name === 'random') return '1-100';
  if (name === 'link') return 'store';
  return 'clash';
}

/** Fills a parsed template; `values` answers each variable (missing ones read as "?"). */
export function renderTemplate(parts: readonly TemplatePart[], value: (part: TemplatePart) => string): string {
  return parts.map((p) => p.text ?? value(p)).join('');
}

/** A random whole number of `{random:a-b}`. */
export function randomIn(arg: string, random: () => number = Math.random): string {
  const r = RANDOM_ARG.exec(arg);
  if (!r) return '?';
  const lo = Number(r[1]);
  const hi = Number(r[2]);
  return String(lo + Math.floor(random() * (hi - lo + 1)));
}

const commandWord = (label: string) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .transform((s) => s.replace(/^!/, '').toLowerCase())
    .pipe(
      z
        .string()
        .min(1, `${label} is required.`)
        .max(COMMAND_NAME_MAX, `${label} is at most ${COMMAND_NAME_MAX} characters.`)
        .regex(/^[a-z0-9_]+$/, `${label} may use only letters, digits and _.`),
    );

const seconds = (label: string) =>
  z
    .number({ error: `${label} must be a number of seconds.` })
    .int(`${label} must be whole seconds.`)
    .min(0, `${label} cannot be negative.`)
    .max(MAX_COOLDOWN_S, `${label} is at most a day.`);

export const commandBody = z.object({
  name: commandWord('The name'),
  aliases: z.array(commandWord('An alias')).max(MAX_ALIASES, `At most ${MAX_ALIASES} aliases.`),
  response: z
    .string({ error: 'The response is required.' })
    .trim()
    .min(1, 'The response is required.')
    .max(TEMPLATE_MAX, `The response is at most ${TEMPLATE_MAX} characters.`),
  userCooldownSeconds: seconds('The per-user cooldown'),
  globalCooldownSeconds: seconds('The global cooldown'),
  permission: z.enum(commandPermissions, { error: 'Choose who may use it.' }),
  liveOnly: z.boolean(),
  cost: z
    .union([z.number(), z.string()])
    .refine((v) => isAmount(String(v)) && Number(v) >= 0 && Number(v) <= MAX_COMMAND_COST, {
      message: `The cost is 0 to ${MAX_COMMAND_COST} points, at most 2 decimals.`,
    }),
  enabled: z.boolean(),
});
export type CommandBody = z.input<typeof commandBody>;

export const customCommand = z.object({
  id: z.string(),
  name: z.string(),
  aliases: z.array(z.string()),
  response: z.string(),
  userCooldownSeconds: z.number(),
  globalCooldownSeconds: z.number(),
  permission: z.enum(commandPermissions),
  liveOnly: z.boolean(),
  cost: z.string(),
  enabled: z.boolean(),
  uses: z.number(),
  lastUsedAt: z.string().nullable(),
});
export type CustomCommand = z.infer<typeof customCommand>;

export const builtinCommand = z.object({
  /** The built-in's own word (`points`); aliases typed in chat run it as if this were typed. */
  name: z.string(),
  description: z.string(),
  aliases: z.array(z.string()),
});
export type BuiltinCommand = z.infer<typeof builtinCommand>;

export const timerBody = z
  .object({
    name: z.string().trim().min(1, 'The name is required.').max(60, 'The name is at most 60 characters.'),
    message: z
      .string()
      .trim()
      .min(1, 'The message is required.')
      .max(TEMPLATE_MAX, `The message is at most ${TEMPLATE_MAX} characters.`),
    intervalMinutes: z
      .number({ error: 'The interval must be a number of minutes.' })
      .int('The interval is whole minutes.')
      .min(0, 'The interval cannot be negative.')
      .max(1440, 'The interval is at most a day.'),
    minLines: z
      .number({ error: 'The chat lines must be a number.' })
      .int('The chat lines must be a whole number.')
      .min(0, 'The chat lines cannot be negative.')
      .max(10_000, 'At most 10,000 chat lines.'),
    liveOnly: z.boolean(),
    enabled: z.boolean(),
  })
  .refine((t) => t.intervalMinutes > 0 || t.minLines > 0, {
    message: 'A timer needs an interval or a number of chat lines (else it posts every round).',
    path: ['intervalMinutes'],
  });
export type TimerBody = z.input<typeof timerBody>;

export const chatTimer = z.object({
  id: z.string(),
  name: z.string(),
  message: z.string(),
  intervalMinutes: z.number(),
  minLines: z.number(),
  liveOnly: z.boolean(),
  enabled: z.boolean(),
  position: z.number(),
  posts: z.number(),
  lastPostedAt: z.string().nullable(),
});
export type ChatTimer = z.infer<typeof chatTimer>;

export const commandsOverview = z.object({
  commands: z.array(customCommand),
  builtins: z.array(builtinCommand),
  timers: z.array(chatTimer),
  sites: z.array(z.string()),
});
export type CommandsOverview = z.infer<typeof commandsOverview>;

export const builtinAliasesBody = z.object({
  aliases: z.array(commandWord('An alias')).max(MAX_ALIASES, `At most ${MAX_ALIASES} aliases.`),
});

export const previewBody = z.object({ response: z.string().max(TEMPLATE_MAX) });
export const previewResponse = z.object({ text: z.string(), problems: z.array(z.string()) });

const idParams = z.object({ id: z.string().uuid('Unknown command.') });
const timerIdParams = z.object({ id: z.string().uuid('Unknown timer.') });
const builtinParams = z.object({ name: z.string().min(1).max(COMMAND_NAME_MAX) });

export const commandEndpoints = {
  overview: defineEndpoint({
    method: 'GET',
    path: '/api/admin/commands',
    access: 'moderator',
    response: commandsOverview,
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/api/admin/commands',
    access: 'moderator',
    body: commandBody,
    response: customCommand,
  }),
  update: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/commands/:id',
    access: 'moderator',
    params: idParams,
    body: commandBody,
    response: customCommand,
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: '/api/admin/commands/:id',
    access: 'moderator',
    params: idParams,
    response: z.object({ ok: z.literal(true) }),
  }),
  preview: defineEndpoint({
    method: 'POST',
    path: '/api/admin/commands/preview',
    access: 'moderator',
    body: previewBody,
    response: previewResponse,
  }),
  builtinAliases: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/commands/builtins/:name',
    access: 'moderator',
    params: builtinParams,
    body: builtinAliasesBody,
    response: builtinCommand,
  }),
  createTimer: defineEndpoint({
    method: 'POST',
    path: '/api/admin/commands/timers',
    access: 'moderator',
    body: timerBody,
    response: chatTimer,
  }),
  updateTimer: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/commands/timers/:id',
    access: 'moderator',
    params: timerIdParams,
    body: timerBody,
    response: chatTimer,
  }),
  removeTimer: defineEndpoint({
    method: 'DELETE',
    path: '/api/admin/commands/timers/:id',
    access: 'moderator',
    params: timerIdParams,
    response: z.object({ ok: z.literal(true) }),
  }),
};
