/**
 * Errors a route or service throws on purpose: each carries the HTTP status and the message the
 * client shows (the contract's toast where it names one). Anything else is a 500 "System error.".
 */
import type { FieldError } from '@kickback/common/http/errors';
import type { Locale } from '@kickback/common/i18n/locales';
import { say, said, type Said } from './i18n';

/**
 * A refusal's words: a catalogue text (a `Said`, answered in the request's language,
 * docs/features/languages.md#server-messages) or, for texts not yet in the catalogues, English.
 */
export type Words = string | Said;

export class AppError extends Error {
  /** The catalogue text of the message, when it has one: the error handler says it in the request's language. */
  readonly said: Said | undefined;

  constructor(
    readonly statusCode: number,
    words: Words,
    /** The fields the problem is about (a 400's `fields`), so a form marks each one. */
    readonly fields?: FieldError[],
  ) {
    const english = typeof words === 'string' ? words : say('en', words);
    super(english);
    this.name = 'AppError';
    this.said = typeof words === 'string' ? undefined : words;
  }
}

/** What an error says in `locale` (its catalogue text, else its English). */
export const errorText = (error: AppError, locale: Locale): string =>
  error.said ? say(locale, error.said) : error.message;

const onField = (status: number, words: Words, field: string | undefined): AppError => {
  const error = new AppError(status, words);
  return field === undefined ? error : new AppError(status, words, [{ path: field, message: error.message }]);
};

/** Bad input: 400 with the message; `field` (the request's name for it) puts it on that field. */
export const badRequest = (words: Words, field?: string) => onField(400, words, field);
export const unauthorized = (words: Words = said('common:signInRequired')) => new AppError(401, words);
export const forbidden = (words: Words = said('common:forbidden')) => new AppError(403, words);
export const notFound = (words: Words = said('common:notFound')) => new AppError(404, words);
/** A conflict; `field` (the request's name for it) marks the field it is about. */
export const conflict = (words: Words, field?: string) => onField(409, words, field);
export const serviceUnavailable = (words: Words) => new AppError(503, words);
export const tooManyRequests = (words: Words = said('common:tooManyRequests')) => new AppError(429, words);
