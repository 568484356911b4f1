/**
 * Discord roles and go-live posts (docs/features/discord-roles.md): Admin → Integrations → Discord
 * server. The settings (the server, the go-live channel, the role each rule gives), the check of the
 * bot's access there, and a reconcile on demand.
 */
import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { messageBody } from './errors';

const SNOWFLAKE = /^\d{15,25}$/;
const snowflake = (what: string) =>
  z.string().trim().regex(SNOWFLAKE, `Enter the ${what} id (15–25 digits: right-click it in Discord → Copy ID).`);
const optionalSnowflake = (what: string) =>
  z
    .union([z.literal(''), snowflake(what)])
    .nullable()
    .transform((v) => (v === '' ? null : v));

/**
 * An object of string keys to `value`s, checked key by key. Not `z.record`: every zod function the
 * app uses anywhere lands in the zod chunk every game page loads, and `z.record` alone cost those
 * pages 0.5 KB gzip over their budget (docs/benchmarks.md#first-load-budget-per-page).
 */
function stringMap<T extends z.ZodType>(value: T) {
  return z.unknown().transform((input, ctx): Record<string, z.output<T>> => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      ctx.addIssue({ code: 'custom', message: 'Expected an object of rule → role.' });
      return z.NEVER;
    }
    const out: Record<string, z.output<T>> = {};
    for (const [key, v] of Object.entries(input)) {
      const parsed = value.safeParse(v);
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? 'Invalid value.', path: [key] });
        return z.NEVER;
      }
      out[key] = parsed.data as z.output<T>;
    }
    return out;
  });
}

/** A rule's key: a word, `code:<site>` or `tier:<site>:<n>` (the server knows which exist). */
const RULE_KEY = /^[a-z]+(:[a-z]+(:\d{1,2})?)?$/;

export const discordRoleSettingsBody = z.object({
  guildId: optionalSnowflake('server'),
  goLiveChannelId: optionalSnowflake('channel'),
  roleIds: stringMap(z.union([z.literal(''), snowflake('role')]))
    .refine((m) => Object.keys(m).every((k) => RULE_KEY.test(k)), 'Unknown role rule.')
    .transform((m) => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== '')))
    .default({}),
});
export type DiscordRoleSettingsBody = z.input<typeof discordRoleSettingsBody>;

export const discordRoleSettings = z.object({
  botMode: z.enum(['discord', 'simulator', 'off']),
  guildId: z.string().nullable(),
  goLiveChannelId: z.string().nullable(),
  // A check, not a transform: an answer is encoded through its schema, and a transform cannot be.
  roleIds: z.custom<Record<string, string>>(
    (v) =>
      typeof v === 'object' &&
      v !== null &&
      !Array.isArray(v) &&
      Object.values(v).every((id) => typeof id === 'string'),
    'Expected an object of rule → role id.',
  ),
  rules: z.array(z.object({ key: z.string(), label: z.string() })),
  /** The last refusal from Discord (a 403 is not retried until this is fixed). */
  lastProblem: z.string().nullable(),
  lastProblemAt: z.string().nullable(),
  lastReconcileAt: z.string().nullable(),
  queue: z.object({ pending: z.number(), failed: z.number() }),
  lastPost: z
    .object({ status: z.string(), title: z.string().nullable(), at: z.string(), error: z.string().nullable() })
    .nullable(),
});
export type DiscordRoleSettings = z.infer<typeof discordRoleSettings>;

export const discordCheckItem = z.object({
  id: z.string(),
  label: z.string(),
  ok: z.boolean(),
  detail: z.string(),
});
export type DiscordCheckItem = z.infer<typeof discordCheckItem>;

export const discordRoleCheck = z.object({
  ok: z.boolean(),
  guildName: z.string().nullable(),
  items: z.array(discordCheckItem),
  /** The server's roles, highest first, for the role pickers. */
  roles: z.array(z.object({ id: z.string(), name: z.string(), position: z.number(), givable: z.boolean() })),
});
export type DiscordRoleCheck = z.infer<typeof discordRoleCheck>;

export const discordRoleEndpoints = {
  settings: defineEndpoint({
    method: 'GET',
    path: '/api/admin/discord-roles',
    access: 'admin',
    response: discordRoleSettings,
  }),
  save: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/discord-roles',
    access: 'admin',
    body: discordRoleSettingsBody,
    response: discordRoleSettings,
  }),
  /** Asks Discord: the server, the bot's member and permissions, each chosen role, the channel. */
  check: defineEndpoint({
    method: 'POST',
    path: '/api/admin/discord-roles/check',
    access: 'admin',
    response: discordRoleCheck,
  }),
  /** Compares every linked member's roles in Discord with the rules now (the nightly job, at once). */
  reconcile: defineEndpoint({
    method: 'POST',
    path: '/api/admin/discord-roles/reconcile',
    access: 'admin',
    response: messageBody,
  }),
};
