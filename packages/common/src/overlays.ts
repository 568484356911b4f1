/**
 * The OBS browser sources (1920×1080, transparent, public, read-only). They are not pages of the
 * site: the server answers them with the web app's small overlay entry (apps/web/overlay.html),
 * which carries only what an overlay draws — no router, no site shell.
 */
export const overlayPaths = [
  '/overlay/giveaway',
  '/overlay/raffle',
  '/overlay/battle',
  '/overlay/hunt',
  '/overlay/calls',
  '/kick/prediction/overlay',
  '/overlay/alerts',
  '/overlay/goal',
] as const;
export type OverlayPath = (typeof overlayPaths)[number];

/** The overlay at `pathname` (matched like the site's routes: any case, a trailing slash allowed), or null. */
export function overlayAt(pathname: string): OverlayPath | null {
  const path = pathname.replace(/\/+$/, '').toLowerCase();
  return overlayPaths.find((p) => p === path) ?? null;
}
