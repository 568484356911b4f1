import { z } from 'zod';
import { defineEndpoint } from './endpoint';

/** Public site configuration: branding, footer links, which integrations are simulated. */
export const socialLink = z.object({ label: z.string(), url: z.string(), icon: z.string() });
export const quickLink = z.object({ label: z.string(), url: z.string() });

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
  /** True when sign-in goes through the built-in dev identity provider instead of Steam. */
  devSignIn: z.boolean(),
});
export type SiteConfig = z.infer<typeof siteConfig>;

export const siteEndpoints = {
  config: defineEndpoint({ method: 'GET', path: '/api/site', access: 'visitor', response: siteConfig }),
};
