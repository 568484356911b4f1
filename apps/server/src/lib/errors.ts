/**
 * Errors a route or service throws on purpose: each carries the HTTP status and the message the
 * client shows (the spec's toast where it names one). Anything else is a 500 "System error.".
 */
import { messages } from '@kickback/common/messages';

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message: string = messages.signInRequired) => new AppError(401, message);
export const forbidden = (message: string = messages.forbidden) => new AppError(403, message);
export const notFound = (message: string = messages.notFound) => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const tooManyRequests = (message: string = messages.tooManyRequests) => new AppError(429, message);
