import { z } from 'zod';

/** Every non-OK JSON answer of the API carries a human-readable message (spec part 1 §8). */
export const errorBody = z.object({ message: z.string() });
export type ErrorBody = z.infer<typeof errorBody>;

/** Success answers that only confirm something: `{ message }`. */
export const messageBody = z.object({ message: z.string() });
export type MessageBody = z.infer<typeof messageBody>;
