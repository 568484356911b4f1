/**
 * NUL characters (U+0000) cannot be stored in PostgreSQL text, and no honest input carries them.
 * Input from people (request bodies, queries, params, hub payloads) that contains one is refused
 * with a 400 naming the field; text from Kick (a chat message someone typed a control character
 * into, or a lone UTF-16 surrogate, which JSON's \uD800 escapes can carry) is kept, cleaned, since
 * refusing it would lose the message.
 */

/** The path (`title`, `items.2.name`) of the first string holding a NUL, or null. Keys count too. */
export function findNul(value: unknown, path: string[] = [], depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') || 'value' : null;
  if (!value || typeof value !== 'object' || depth > 64) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], [...path, String(i)], depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, key.replaceAll('\u0000', '')].join('.') || 'value';
    const found = findNul(inner, [...path, key], depth + 1);
    if (found !== null) return found;
  }
  return null;
}

export const nulMessage = (where: string) => `Invalid ${where}: must not contain NUL characters.`;

/** A UTF-16 surrogate without its partner: not text, and PostgreSQL's jsonb and text refuse it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Replaces each lone surrogate with U+FFFD (kept text from outside sources). */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/** Text from an outside source made storable: NULs removed, lone surrogates replaced (U+FFFD). */
export function storableText(text: string): string {
  return wellFormed(withoutNul(text));
}

/** At most `max` UTF-16 units, never ending in half of a surrogate pair. */
export function sliceText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** Removes NUL characters (kept text from outside sources). */
export function withoutNul(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
}
