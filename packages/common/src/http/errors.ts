import { z } from 'zod';

/**
 * One field's problem in a 400 answer: `path` names the field as the request spelled it (dots
 * between levels, e.g. `title` or `rewards.0.amount`), `message` says in plain words what to fix.
 */
export const fieldError = z.object({ path: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldError>;

/**
 * Every non-OK JSON answer of the API carries a human-readable message
 * (docs/product.md#site-errors-and-toasts); a 400 for bad input also lists each field's problem, so
 * a form can put each message on its field.
 */
export const errorBody = z.object({ message: z.string(), fields: z.array(fieldError).optional() });
export type ErrorBody = z.infer<typeof errorBody>;

/** Success answers that only confirm something: `{ message }`. */
export const messageBody = z.object({ message: z.string() });
export type MessageBody = z.infer<typeof messageBody>;
