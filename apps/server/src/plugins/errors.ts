/**
 * One place that turns failures into answers: validation → 400 with what is wrong, AppError → its
 * status and message, anything else → 500 "System error." (the stack goes to the log only).
 * Unknown /api paths answer JSON 404.
 */
import type { FastifyError, FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { plugin } from '../lib/plugin';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  validatorCompiler as zodValidatorCompiler,
} from 'fastify-type-provider-zod';
import { badInputMessage } from '../lib/db-errors';
import { AppError, badRequest } from '../lib/errors';
import { say } from '../lib/i18n';
import { findNul, nulMessage } from '../lib/text-guard';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[] } };
}

const pathOf = (issue: ValidationIssue) => issue.instancePath?.replace(/^\//, '').replace(/\//g, '.') ?? '';

/**
 * A message written as a sentence for people ("Enter a title.") is said as it is; a terse one
 * ("is required") is prefixed with the field it is about.
 */
function sayIssue(context: string | undefined, issue: ValidationIssue): string {
  const message = issue.message ?? 'invalid value';
  if (/^[A-Z].*[.!?]$/s.test(message)) return message;
  const where = pathOf(issue);
  const field = where ? `${where}` : context === 'body' ? 'body' : (context ?? 'request');
  return `Invalid ${field}: ${message}`;
}

/** The 400 answer: the first problem as the message (the toast), and every field's own message. */
function describeValidation(context: string | undefined, issues: ValidationIssue[]) {
  const first = issues[0];
  if (!first) return { message: 'Invalid request.' };
  const fields: Array<{ path: string; message: string }> = [];
  const seen = new Set<string>();
  for (const issue of issues) {
    const path = pathOf(issue);
    if (path === '' || seen.has(path)) continue;
    seen.add(path);
    fields.push({ path, message: sayIssue(context, issue) });
  }
  return { message: sayIssue(context, first), ...(fields.length > 0 ? { fields } : {}) };
}

/**
 * The zod validator, preceded by one check for every body, query and params of every route: a
 * string (or key) holding a NUL character is refused with a 400 naming the field.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = (route) => {
  const validate = zodValidatorCompiler(route as Parameters<typeof zodValidatorCompiler>[0]);
  return (data: unknown) => {
    const nulAt = findNul(data);
    if (nulAt !== null)
      return { error: badRequest(nulMessage(nulAt === 'value' ? (route.httpPart ?? 'request') : nulAt)) };
    return validate(data);
  };
};

export const errorsPlugin = plugin({
  name: 'errorsPlugin',
})(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      // Said again in the request's language (docs/features/languages.md#server-messages); the
      // fields that carried the message carry its translation.
      const message = error.said ? say(request.locale, error.said) : error.message;
      const fields = error.fields?.map((f) => (f.message === error.message ? { ...f, message } : f));
      return reply.status(error.statusCode).send({ message, ...(fields ? { fields } : {}) });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation as unknown as ValidationIssue[];
      return reply.status(400).send(describeValidation(error.validationContext, issues));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, cause: error.cause }, 'response did not match its schema');
      return reply.status(500).send({ message: request.t('common:systemError') });
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: bad JSON, body too large, unsupported media type, …
      const text =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'Invalid body: malformed JSON.'
          : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? 'Request body is too large.'
            : status === 429
              ? request.t('common:tooManyRequests')
              : error.message || 'Invalid request.';
      return reply.status(status).send({ message: text });
    }
    const badInput = badInputMessage(error);
    if (badInput) {
      request.log.warn({ err: error }, 'bad input refused by the database');
      return reply.status(400).send({ message: badInput });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: request.t('common:systemError') });
  });
});
