/**
 * Names drawn on the overlays (slot and provider names, Kick usernames, titles) come from chat and
 * forms. Characters that draw nothing or turn the text around — zero-width spaces and joiners,
 * bidi embeddings, overrides and isolates, the word joiner, the BOM, soft hyphens (Unicode format
 * characters), control characters, line and paragraph separators, and the Hangul fillers that
 * render as blanks — are removed, and runs of spaces collapse to one. What is left reads the same
 * in OBS as it does to the person who typed it.
 */
const INVISIBLE = /[\p{Cf}\p{Cc}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0]/gu;

export function shownName(text: string): string {
  return text.replace(INVISIBLE, '').replace(/\s+/gu, ' ').trim();
}

/** `shownName` for a name that may be absent. */
export function shownNameOrNull(text: string | null): string | null {
  return text === null ? null : shownName(text);
}
