/**
 * Errors a route or service throws on purpose: each carries the HTTP status and the message the
 * client shows (the contract's toast where it names one). Anything else is a 500 "System error.".
 */
import type { FieldError } from '@kickback/common/http/errors';
import { messages } from '@kickback/common/messages';

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** The fields the problem is about (a 400's `fields`), so a form marks each one. */
    readonly fields?: FieldError[],
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** Bad input: 400 with the message; `field` (the request's name for it) puts it on that field. */
export const badRequest = (message: string, field?: string) =>
  new AppError(400, message, field === undefined ? undefined : [{ path: field, message }]);
export const unauthorized = (message: string = messages.signInRequired) => new AppError(401, message);
export const forbidden = (message: string = messages.forbidden) => new AppError(403, message);
export const notFound = (message: string = messages.notFound) => new AppError(404, message);
/** A conflict; `field` (the request's name for it) marks the field it is about. */
export const conflict = (message: string, field?: string) =>
  new AppError(409, message, field === undefined ? undefined : [{ path: field, message }]);
export const serviceUnavailable = (message: string) => new AppError(503, message);
export const tooManyRequests = (message: string = messages.tooManyRequests) => new AppError(429, message);
