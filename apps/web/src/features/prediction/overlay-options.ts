/**
 * The overlay's URL options, which the admin page offers to copy: `scale` (0.5–3), `position`
 * (where on the 1920×1080 canvas) and `theme` (dark or light panel). Anything unknown falls back.
 */
export const overlayPositions = ['top-left', 'top-right', 'bottom-left', 'bottom-right', 'center'] as const;
export type OverlayPosition = (typeof overlayPositions)[number];
export const overlayThemes = ['dark', 'light'] as const;
export type OverlayTheme = (typeof overlayThemes)[number];

export interface OverlayOptions {
  scale: number;
  position: OverlayPosition;
  theme: OverlayTheme;
}

export const defaultOverlayOptions: OverlayOptions = { scale: 1, position: 'top-left', theme: 'dark' };

export function readOverlayOptions(search: string): OverlayOptions {
  const q = new URLSearchParams(search);
  const scale = Number(q.get('scale'));
  const position = q.get('position') as OverlayPosition | null;
  const theme = q.get('theme') as OverlayTheme | null;
  return {
    scale: Number.isFinite(scale) && scale >= 0.5 && scale <= 3 ? scale : defaultOverlayOptions.scale,
    position: position && overlayPositions.includes(position) ? position : defaultOverlayOptions.position,
    theme: theme && overlayThemes.includes(theme) ? theme : defaultOverlayOptions.theme,
  };
}

export function overlayUrl(origin: string, o: OverlayOptions): string {
  const q = new URLSearchParams();
  if (o.scale !== defaultOverlayOptions.scale) q.set('scale', String(o.scale));
  if (o.position !== defaultOverlayOptions.position) q.set('position', o.position);
  if (o.theme !== defaultOverlayOptions.theme) q.set('theme', o.theme);
  const query = q.toString();
  return `${origin}/kick/prediction/overlay${query ? `?${query}` : ''}`;
}
