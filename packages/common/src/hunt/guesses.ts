/**
 * `!guess` fairness (docs/features/bonus-hunt.md): when guessing closes, the SHA-256 of the closed list is published;
 * at the end the list itself is, so anyone can recompute the hash and see that no guess was added
 * or changed afterwards. Server and browser hash the same canonical text, defined here.
 *
 * Canonical serialisation: the guesses in the order they were made (the tie-break order), as the
 * JSON text (no spaces) of an array of `[kickUsername, amount, guessedAt]`, where amount has
 * exactly 2 decimals ("1234.50") and guessedAt is the ISO time with milliseconds
 * ("2026-11-26T16:00:00.000Z"); UTF-8 encoded; SHA-256 as lowercase hex.
 */
import { centsToText, toCents } from '../money';

export interface RevealedGuess {
  kickUsername: string;
  /** A number with at most 2 decimals. */
  amount: number;
  guessedAt: string;
}

export function canonicalGuessList(guesses: readonly RevealedGuess[]): string {
  return JSON.stringify(guesses.map((g) => [g.kickUsername, centsToText(toCents(g.amount)), g.guessedAt]));
}

/** SHA-256 hex of the canonical list, with WebCrypto (the browser's, and Node's global one). */
export async function guessListHash(guesses: readonly RevealedGuess[]): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalGuessList(guesses));
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The index of the winning guess: the smallest distance to the final total; on a tie the earliest
 * (guesses come in the order they were made). -1 for no guesses.
 */
export function closestGuessIndex(amountsCents: readonly bigint[], totalCents: bigint): number {
  let best = -1;
  let bestDistance = 0n;
  amountsCents.forEach((amount, i) => {
    const distance = amount > totalCents ? amount - totalCents : totalCents - amount;
    if (best === -1 || distance < bestDistance) {
      best = i;
      bestDistance = distance;
    }
  });
  return best;
}
