import { z } from 'zod';

/** Digits only, an optional sign: no hex ("0x10"), no exponent ("1e1"), no fraction, no blanks. */
const INTEGER_TEXT = /^[+-]?\d{1,16}$/;

/**
 * A whole number from a JSON body, a path or a query: a JSON integer, or text of decimal digits
 * (paths and queries are text). Everything `z.coerce.number()` would also let through — `true`,
 * `"0x10"`, `"1e1"`, `""`, `"10.0"`, `[5]` — is refused with `message`. The result then goes
 * through `rule` (the API's own bounds).
 */
export function strictInt(message: string, rule: z.ZodType<number, number> = z.number()) {
  return z
    .union([z.number(), z.string()], { error: message })
    .transform((v, ctx) => {
      if (typeof v === 'number' ? Number.isSafeInteger(v) : INTEGER_TEXT.test(v.trim())) {
        const n = Number(v);
        if (Number.isSafeInteger(n)) return n === 0 ? 0 : n; // "-0" reads as 0
      }
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    })
    .pipe(rule);
}

/** A numeric row id in a path (`/…/:id`): a positive whole number, digits only. */
export const idParam = strictInt('must be a whole number', z.number().positive('must be a whole number'));
