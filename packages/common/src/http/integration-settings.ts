/**
 * Admin → Settings → Integrations (docs/features/integration-settings.md): the Kick, Discord and
 * partner credentials an admin sets on the site instead of the server environment. Each field is
 * named by the environment variable it stands for; a variable set in the environment wins. Secrets
 * are never sent back: the page shows "set · last 4".
 */
import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { messageBody } from './errors';

export const integrationSettingGroups = ['Kick', 'Discord', 'Partners'] as const;
export type IntegrationSettingGroup = (typeof integrationSettingGroups)[number];

/** A key, token or code: one word of printable characters. */
const token = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .regex(/^[\x21-\x7e]*$/, 'must be one word without spaces');

export const integrationSettingFields = {
  KICK_CLIENT_ID: { group: 'Kick', label: 'Kick app client id', secret: false, rule: token(200) },
  KICK_CLIENT_SECRET: { group: 'Kick', label: 'Kick app client secret', secret: true, rule: token(500) },
  KICK_BROADCASTER_USER_ID: {
    group: 'Kick',
    label: "Streamer's Kick user id",
    secret: false,
    rule: z
      .string()
      .trim()
      .regex(/^\d{0,20}$/, 'must be a numeric Kick user id'),
  },
  DISCORD_CLIENT_ID: {
    group: 'Discord',
    label: 'Discord client id',
    secret: false,
    rule: z
      .string()
      .trim()
      .regex(/^\d{0,25}$/, 'must be the numeric application id'),
  },
  DISCORD_CLIENT_SECRET: { group: 'Discord', label: 'Discord client secret', secret: true, rule: token(500) },
  DISCORD_BOT_TOKEN: { group: 'Discord', label: 'Discord bot token', secret: true, rule: token(500) },
  CLASH_API_KEY: { group: 'Partners', label: 'Clash.gg API key', secret: true, rule: token(500) },
  CLASH_ROYALE_API_KEY: { group: 'Partners', label: 'Clash Royale API key', secret: true, rule: token(500) },
  CSGOBIG_REF_CODE: { group: 'Partners', label: 'CSGOBig referral code', secret: true, rule: token(200) },
  HOWL_API_KEY: { group: 'Partners', label: 'Howl.gg API key', secret: true, rule: token(500) },
  RUSTMAGIC_API_KEY: { group: 'Partners', label: 'RustMagic API key', secret: true, rule: token(500) },
  RUSTMAGIC_BOARD: {
    group: 'Partners',
    label: 'RustMagic board name',
    secret: false,
    rule: z
      .string()
      .trim()
      .max(100, 'must be at most 100 characters')
      .regex(/^[^\r\n]*$/, 'must be one line'),
  },
  ROOBET_API_KEY: { group: 'Partners', label: 'Roobet API key', secret: true, rule: token(500) },
  ROOBET_AFFILIATE_ID: { group: 'Partners', label: 'Roobet affiliate id', secret: false, rule: token(200) },
  CASES_API_KEY: { group: 'Partners', label: 'Cases.gg API key', secret: true, rule: token(500) },
} as const satisfies Record<
  string,
  { group: IntegrationSettingGroup; label: string; secret: boolean; rule: z.ZodType<string> }
>;

export type IntegrationSettingName = keyof typeof integrationSettingFields;
export const integrationSettingNames = Object.keys(integrationSettingFields) as IntegrationSettingName[];

/**
 * A change: each named field set to a new value, or cleared with "" or null; fields left out stay
 * as they are.
 */
export const integrationSettingsBody = z
  .object(
    Object.fromEntries(
      integrationSettingNames.map((name) => [name, integrationSettingFields[name].rule.nullable().optional()]),
    ) as unknown as { [K in IntegrationSettingName]: z.ZodOptional<z.ZodNullable<z.ZodType<string>>> },
  )
  .strict();
export type IntegrationSettingsBody = z.infer<typeof integrationSettingsBody>;

export const integrationSettingView = z.object({
  name: z.string(),
  group: z.enum(integrationSettingGroups),
  label: z.string(),
  secret: z.boolean(),
  /**
   * env: set by the server environment (read-only here); site: saved on this page; unreadable: saved
   * on this page but it does not open with this server's key (another or a lost SECRET_KEY), so it is
   * not used; none: not set.
   */
  source: z.enum(['env', 'site', 'unreadable', 'none']),
  /** A plain value as it is; a secret as "set · last 4" (never the secret). Null when not set. */
  shown: z.string().nullable(),
});
export type IntegrationSettingView = z.infer<typeof integrationSettingView>;

export const integrationSettingsView = z.object({
  fields: z.array(integrationSettingView),
  /** Where the key that seals these settings lives. */
  secretKey: z.object({ source: z.enum(['SECRET_KEY', 'data folder', 'database']), where: z.string() }),
  /** CODE_ENCRYPTION_KEY and KICK_TOKEN_KEY: set, or how they are made (read-only). */
  otherKeys: z.array(z.object({ name: z.string(), state: z.string() })),
});
export type IntegrationSettingsView = z.infer<typeof integrationSettingsView>;

/** "set · …a1b2": a secret shown without giving it away. */
export function lastFour(secret: string): string {
  return secret.length > 8 ? `set · …${secret.slice(-4)}` : 'set';
}

export const integrationSettingsEndpoints = {
  get: defineEndpoint({
    method: 'GET',
    path: '/api/admin/settings/integrations',
    access: 'admin',
    response: integrationSettingsView,
  }),
  update: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/settings/integrations',
    access: 'admin',
    body: integrationSettingsBody,
    response: integrationSettingsView.extend({ message: z.string() }),
  }),
  /** Admin → Go live: posts a test line to the Kick chat through the bot. */
  testMessage: defineEndpoint({
    method: 'POST',
    path: '/api/admin/go-live/test-message',
    access: 'admin',
    response: messageBody.extend({ result: z.enum(['posted', 'not-connected', 'failed']) }),
  }),
  /** Admin → Go live: a Discord DM to the signed-in admin through the bot. */
  testDm: defineEndpoint({
    method: 'POST',
    path: '/api/admin/go-live/test-dm',
    access: 'admin',
    response: messageBody.extend({ result: z.enum(['sent', 'not-set-up', 'not-linked', 'failed']) }),
  }),
};
