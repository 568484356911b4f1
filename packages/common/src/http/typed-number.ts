import { z } from 'zod';

/**
 * A number typed into a text box: empty is `missing`, anything else must read as a number
 * (`notNumber` otherwise); the number then goes through `rule` (the API's own check).
 */
export const typedNumber = (missing: string, notNumber: string, rule: z.ZodType<number, number>) =>
  z
    .string()
    .transform((v, ctx) => {
      const text = v.trim();
      if (text === '') ctx.addIssue({ code: 'custom', message: missing });
      else if (!/^-?\d+(\.\d+)?$/.test(text)) ctx.addIssue({ code: 'custom', message: notNumber });
      else return Number(text);
      return z.NEVER;
    })
    .pipe(rule);
