import { z } from 'zod';
import { defineEndpoint } from './endpoint';

/** Public site configuration: branding, footer links, which integrations are simulated. */
export const socialLink = z.object({ label: z.string(), url: z.string(), icon: z.string() });
export const quickLink = z.object({ label: z.string(), url: z.string() });

/** The 18+ gate (issue 20): shown on a first visit unless turned off; the text is the site's own. */
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
  /** The one challenge category the public Challenges page shows (DESIGN §6; default Roobet). */
  challengeCategory: z.string(),
  /** The 18+ gate: on or off and its text (the file's value until an admin changes it). */
  ageGate: ageGate,
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
  /** The signed-in user confirmed the gate; remembered on their account for every browser. */
  confirmAge: defineEndpoint({
    method: 'POST',
    path: '/api/User/age-confirmation',
    access: 'user',
    response: z.object({ ageConfirmed: z.literal(true) }),
  }),
};
