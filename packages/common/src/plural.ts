/**
 * A count with its noun in the right number: "1 participant", "2 participants", "0 participants".
 * The plural defaults to the singular plus "s"; pass it for irregular nouns ("entry", "entries").
 */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
