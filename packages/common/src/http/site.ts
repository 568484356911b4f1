import { z } from 'zod';
import { menuFeatureIds } from '../site-menu';
import { defineEndpoint } from './endpoint';
import { accentContrastProblem } from '../accent';
import { LOCALES } from '../i18n/locales';

/**
 * The site's language (docs/features/languages.md#settings): the default, and whether a first
 * visit follows the browser's languages.
 */
export const siteLanguage = z.object({ default: z.enum(LOCALES), followBrowser: z.boolean() });
export type SiteLanguage = z.infer<typeof siteLanguage>;

/** Public site configuration: branding, footer links, which integrations are simulated. */
export const socialLink = z.object({ label: z.string(), url: z.string(), icon: z.string() });
export const quickLink = z.object({ label: z.string(), url: z.string() });

/** The 18+ gate (docs/features/sign-in-and-age-gate.md#the-18-gate): shown on a first visit unless turned off; the text is the site's own. */
export const AGE_GATE_TEXT_MAX = 1000;
export const ageGate = z.object({ enabled: z.boolean(), text: z.string() });
export type AgeGate = z.infer<typeof ageGate>;

/** An admin's change to the gate. */
export const ageGateBody = z.object({
  enabled: z.boolean(),
  text: z
    .string()
    .trim()
    .min(1, 'Enter the text visitors confirm.')
    .max(AGE_GATE_TEXT_MAX, `Keep the text to ${AGE_GATE_TEXT_MAX} characters or fewer.`),
});
export type AgeGateBody = z.infer<typeof ageGateBody>;

/**
 * The site's branding an admin changes on Admin → Settings (`PUT /api/admin/site/branding`), checked
 * by the same rules on the form and on the server. A link is a site path (`/store`) or an http(s)
 * address, never `javascript:` or a protocol-relative `//host`; the logo is a site path or https.
 */
export const SOCIAL_ICONS = ['kick', 'discord', 'x', 'youtube', 'link'] as const;
export const BRANDING_LIMITS = {
  siteName: 60,
  streamerName: 40,
  tagline: 200,
  url: 500,
  email: 200,
  label: 40,
  category: 40,
  socials: 10,
  quickLinks: 12,
} as const;

/** A path on this site: one leading slash, no spaces, backslashes or control characters. */
const SITE_PATH = /^\/(?![/\\])[^\s\\]*$/;

function isHttpUrl(value: string, httpsOnly = false): boolean {
  if (!/^https?:\/\//i.test(value) || /[\s\\]/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || (!httpsOnly && url.protocol === 'http:')) && url.hostname !== '';
  } catch {
    return false;
  }
}

const required = (what: string, max: number) =>
  z
    .string(`Enter the ${what}.`)
    .trim()
    .min(1, `Enter the ${what}.`)
    .max(max, `Keep the ${what} to ${max} characters or fewer.`);

/** A link: a site path or an http(s) address. */
const linkUrl = (what: string) =>
  required(what, BRANDING_LIMITS.url).refine(
    (v) => SITE_PATH.test(v) || isHttpUrl(v),
    `The ${what} must be a site path (like /store) or an http(s):// address.`,
  );

export const brandingBody = z.object({
  siteName: required('site name', BRANDING_LIMITS.siteName),
  streamerName: required('streamer name', BRANDING_LIMITS.streamerName),
  tagline: z
    .string('Enter the tagline.')
    .trim()
    .max(BRANDING_LIMITS.tagline, `Keep the tagline to ${BRANDING_LIMITS.tagline} characters or fewer.`),
  accentColor: z
    .string('Enter the accent colour.')
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, 'The accent colour must be a colour like #53fc18.')
    .superRefine((v, ctx) => {
      const problem = accentContrastProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  logoUrl: required('logo URL', BRANDING_LIMITS.url).refine(
    (v) => SITE_PATH.test(v) || isHttpUrl(v, true),
    'The logo URL must be a site path (like /brand/logo.svg) or an https:// address.',
  ),
  kickChannel: z
    .string('Enter the Kick channel name.')
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,25}$/, 'The Kick channel is its name as in kick.com/name: letters, digits, _ or -.'),
  contactEmail: z
    .string('Enter the contact email.')
    .trim()
    .max(BRANDING_LIMITS.email, `Keep the contact email to ${BRANDING_LIMITS.email} characters or fewer.`)
    .pipe(z.email('Enter a valid contact email, like hello@example.com.')),
  termsUrl: linkUrl('terms URL'),
  privacyUrl: linkUrl('privacy URL'),
  socials: z
    .array(
      z.object({
        label: required('social link label', BRANDING_LIMITS.label),
        url: required('social link URL', BRANDING_LIMITS.url).refine(
          (v) => isHttpUrl(v),
          'The social link URL must be an http(s):// address.',
        ),
        icon: z.enum(SOCIAL_ICONS, `Pick the social link's icon: ${SOCIAL_ICONS.join(', ')}.`),
      }),
      'Socials must be a list.',
    )
    .max(BRANDING_LIMITS.socials, `Keep the socials to ${BRANDING_LIMITS.socials} or fewer.`),
  quickLinks: z
    .array(
      z.object({ label: required('quick link label', BRANDING_LIMITS.label), url: linkUrl('quick link URL') }),
      'Quick links must be a list.',
    )
    .max(BRANDING_LIMITS.quickLinks, `Keep the quick links to ${BRANDING_LIMITS.quickLinks} or fewer.`),
  challengeCategory: required('challenge category', BRANDING_LIMITS.category),
});
export type BrandingBody = z.infer<typeof brandingBody>;
export type BrandingInput = z.input<typeof brandingBody>;

/** The branding part of a site configuration: what Admin → Settings edits and the server stores. */
export function brandingOf(site: Omit<SiteConfig, 'devSignIn' | 'menu'>): BrandingBody {
  return {
    siteName: site.siteName,
    streamerName: site.streamerName,
    tagline: site.tagline,
    accentColor: site.accentColor,
    logoUrl: site.logoUrl,
    kickChannel: site.kickChannel,
    contactEmail: site.contactEmail,
    termsUrl: site.termsUrl,
    privacyUrl: site.privacyUrl,
    socials: site.socials.map((s) => ({ ...s }) as BrandingBody['socials'][number]),
    quickLinks: site.quickLinks.map((l) => ({ ...l })),
    challengeCategory: site.challengeCategory,
  };
}

/** The Kick channel's address, from its name. */
export const kickChannelUrlOf = (channel: string): string => `https://kick.com/${encodeURIComponent(channel)}`;

/** One entry of the menu (site-menu.ts): a feature and whether the menus show it. */
export const menuEntry = z.object({
  id: z.enum(menuFeatureIds, 'Pick a feature the site has.'),
  shown: z.boolean('Say whether the menus show it.'),
});

/** The admin's menu (Admin → Settings → Menu): every feature once, in the order the menus show them. */
export const menuBody = z.object({
  menu: z
    .array(menuEntry, 'The menu must be a list.')
    .refine((m) => new Set(m.map((e) => e.id)).size === m.length, 'Name each feature once.')
    .refine(
      (m) => menuFeatureIds.every((id) => m.some((e) => e.id === id)),
      'Name every feature: hide one instead of leaving it out.',
    ),
});
export type MenuBody = z.infer<typeof menuBody>;

export const siteConfig = z.object({
  siteName: z.string(),
  streamerName: z.string(),
  tagline: z.string(),
  accentColor: z.string(),
  logoUrl: z.string(),
  kickChannel: z.string(),
  kickChannelUrl: z.string(),
  contactEmail: z.string(),
  socials: z.array(socialLink),
  quickLinks: z.array(quickLink),
  termsUrl: z.string(),
  privacyUrl: z.string(),
  /** The one challenge category the public Challenges page shows (docs/features/challenges.md#rules; default Roobet). */
  challengeCategory: z.string(),
  /** The 18+ gate: on or off and its text (the file's value until an admin changes it). */
  ageGate: ageGate,
  /** The menus' features in the admin's order, each shown or hidden (site-menu.ts). */
  menu: z.array(menuEntry),
  /** The site's default language and whether a first visit follows the browser (docs/features/languages.md#settings). */
  language: siteLanguage,
  /** True when sign-in goes through the built-in dev identity provider instead of Steam. */
  devSignIn: z.boolean(),
});
export type SiteConfig = z.infer<typeof siteConfig>;

/** The one-time setup link's token (printed in the server log while the site has no admin). */
export const setupClaimBody = z.object({
  token: z
    .string()
    .trim()
    .regex(/^[\w-]{20,100}$/, 'This setup link is not valid: copy the whole link from the server log.'),
});

export const siteEndpoints = {
  config: defineEndpoint({ method: 'GET', path: '/api/site', access: 'visitor', response: siteConfig }),
  updateAgeGate: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/site/age-gate',
    access: 'admin',
    body: ageGateBody,
    response: z.object({ message: z.string(), ageGate: ageGate }),
  }),
  /** The site's branding, links, socials and public challenge category (docs/go-live.md). */
  updateBranding: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/site/branding',
    access: 'admin',
    body: brandingBody,
    response: z.object({ message: z.string(), site: siteConfig }),
  }),
  /** The menus' order and which features they show (docs/features/site-and-admin-tools.md#the-menu). */
  updateMenu: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/site/menu',
    access: 'admin',
    body: menuBody,
    response: z.object({ message: z.string(), site: siteConfig }),
  }),
  /**
   * First run: the signed-in user with the setup link's token becomes the site's Admin (audited);
   * the token dies (docs/go-live.md).
   */
  claimSite: defineEndpoint({
    method: 'POST',
    path: '/api/setup/claim',
    access: 'user',
    body: setupClaimBody,
    response: z.object({ message: z.string() }),
  }),
  /**
   * Whether a setup link still works, so its page offers "Make … the admin" only then (a used link
   * says so instead). The token goes in the body, never in a logged URL.
   */
  checkSetupLink: defineEndpoint({
    method: 'POST',
    path: '/api/setup/check',
    access: 'visitor',
    body: setupClaimBody,
    response: z.object({ usable: z.boolean(), message: z.string().nullable() }),
  }),
  /** The signed-in user confirmed the gate; remembered on their account for every browser. */
  confirmAge: defineEndpoint({
    method: 'POST',
    path: '/api/User/age-confirmation',
    access: 'user',
    response: z.object({ ageConfirmed: z.literal(true) }),
  }),
};
