/**
 * NUL characters (U+0000) cannot be stored in PostgreSQL text, and no honest input carries them.
 * Input from people (request bodies, queries, params, hub payloads) that contains one is refused
 * with a 400 naming the field; text from Kick (a chat message someone typed a control character
 * into) is kept, cleaned, since refusing it would lose the message.
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

/** Removes NUL characters (kept text from outside sources). */
export function withoutNul(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
}
