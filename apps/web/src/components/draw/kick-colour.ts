/**
 * Kick name colours on the dark theme. A name keeps its Kick hue, but a colour too dark to read
 * on our surfaces (WCAG AA, 4.5:1) is lightened towards white until it is readable.
 */
const SURFACE_LUMINANCE = 0.014; // --kb-surface-2, rgb(27, 31, 38) (tokens.css)
const MIN_RATIO = 4.6;

function channel(c: number): number {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

function luminance([r, g, b]: number[]): number {
  return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
}

export function readableKickColour(colour: string | null): string | undefined {
  const m = colour?.match(/^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i);
  if (!m) return undefined;
  let rgb = [m[1], m[2], m[3]].map((h) => parseInt(h!, 16));
  for (let i = 0; i < 10 && (luminance(rgb) + 0.05) / (SURFACE_LUMINANCE + 0.05) < MIN_RATIO; i++) {
    rgb = rgb.map((c) => Math.round(c + (255 - c) * 0.15));
  }
  return `rgb(${rgb.join(', ')})`;
}
