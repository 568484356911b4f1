/**
 * The site's accent colour and everything derived from it. The web sets these tokens on the page
 * from the one colour an admin picks (Admin → Settings), and the branding schema refuses a colour
 * that the site's dark text and dark pages would not read against (WCAG AA, 4.5:1): the primary
 * buttons write dark ink on the accent, and links and chips write the accent on the dark surfaces.
 */

/** The text colour on accent-coloured buttons and chips (tokens.css: --kb-accent-ink). */
export const ACCENT_INK = '#0b0d10';
/** The lightest dark surface the accent is written on (tokens.css: --kb-surface-2). */
const LIGHTEST_SURFACE = '#1b1f26';
export const MIN_ACCENT_CONTRAST = 4.5;

type Rgb = readonly [number, number, number];

export function parseHexColour(hex: string): Rgb | null {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  if (!m) return null;
  return [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)];
}

const toHex = (rgb: Rgb): string => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

function linear(c: number): number {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

function luminance([r, g, b]: Rgb): number {
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG contrast ratio of two colours (1 to 21). */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `over` mixed into `base` at `alpha` (what a translucent colour looks like on its background). */
function mix(base: Rgb, over: Rgb, alpha: number): Rgb {
  return [0, 1, 2].map((i) => base[i]! + (over[i]! - base[i]!) * alpha) as unknown as Rgb;
}

const WHITE: Rgb = [255, 255, 255];

/**
 * The lowest contrast the accent gets where the site uses it: under the button ink, and as link
 * text on the lightest dark surface. Null for a string that is not #rrggbb.
 */
export function accentContrast(hex: string): number | null {
  const accent = parseHexColour(hex);
  if (!accent) return null;
  return Math.min(
    contrastRatio(accent, parseHexColour(ACCENT_INK)!),
    contrastRatio(accent, parseHexColour(LIGHTEST_SURFACE)!),
  );
}

/** The refusal's words, or null when the accent reads well enough. */
export function accentContrastProblem(hex: string): string | null {
  const ratio = accentContrast(hex);
  if (ratio === null || ratio >= MIN_ACCENT_CONTRAST) return null;
  // Rounded down, so a colour just under the bar never reads as "4.50:1".
  const shown = (Math.floor(ratio * 100) / 100).toFixed(2);
  return (
    `The accent colour ${hex.trim()} is too dark: the buttons' dark text and links on the dark pages ` +
    `would read at ${shown}:1, and text needs ${MIN_ACCENT_CONTRAST}:1. Pick a lighter colour.`
  );
}

/**
 * The lightest background accent-coloured text is written on: Bootstrap's dark surface of tables,
 * dialogs and menus (#212529, lighter than LIGHTEST_SURFACE) under the strongest accent tint the
 * site draws behind accent text (a chip's or the balance pill's hover, 0.22).
 */
const TEXT_SURFACE = '#212529';
const TEXT_TINT = 0.22;

/**
 * The accent as text: the accent itself where it reads at 4.5:1 on TEXT_SURFACE under its own tint,
 * else the accent lightened toward white just enough that it does. An accepted accent near the
 * 4.5:1 bar (a mid pink, say) would otherwise fall under it in a table, a dialog or a chip.
 */
function readableOnSurfaces(accent: Rgb): Rgb {
  const background = mix(parseHexColour(TEXT_SURFACE)!, accent, TEXT_TINT);
  for (let step = 0; step <= 50; step += 1) {
    const text = mix(accent, WHITE, step / 50).map((c) => Math.round(c)) as unknown as Rgb;
    if (contrastRatio(text, background) >= MIN_ACCENT_CONTRAST) return text;
  }
  return WHITE;
}

export interface AccentTokens {
  /** --kb-accent */
  accent: string;
  /** --kb-accent-rgb: "r, g, b", for rgba(var(--kb-accent-rgb), alpha) glows, tints and links. */
  rgb: string;
  /** --kb-accent-hover: the accent (as text) lightened (a lighter accent keeps the dark ink readable). */
  hover: string;
  hoverRgb: string;
  /** --kb-accent-active: a little lighter than the accent, never darker (the ink stays readable). */
  active: string;
  /** --kb-accent-disabled: the accent sunk into the dark background. */
  disabled: string;
  /** --kb-accent-text: the accent as text (links, code, chips), at least 4.5:1 wherever it is written. */
  text: string;
  /** --kb-accent-text-rgb */
  textRgb: string;
}

/** Every accent-dependent token, from the one accent colour (null for a string that is not #rrggbb). */
export function accentTokens(hex: string): AccentTokens | null {
  const accent = parseHexColour(hex);
  if (!accent) return null;
  const text = readableOnSurfaces(accent);
  // Lightened from the text colour, so a hovered link never reads worse than a resting one.
  const hover = mix(text, WHITE, 0.3);
  const rgbOf = (c: Rgb) => c.map((v) => Math.round(v)).join(', ');
  return {
    accent: toHex(accent),
    rgb: rgbOf(accent),
    hover: toHex(hover),
    hoverRgb: rgbOf(hover),
    active: toHex(mix(accent, WHITE, 0.15)),
    disabled: toHex(mix(parseHexColour(ACCENT_INK)!, accent, 0.25)),
    text: toHex(text),
    textRgb: rgbOf(text),
  };
}
