/**
 * Forms: react-hook-form with the endpoint's zod schema from packages/common as the resolver, so
 * the web and the server check a field by the same rule and say the same words. Every field is
 * checked as a person types; submitting checks them all at once; a 400's field errors (the
 * server's `fields`) land on the fields they name.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import {
  useForm,
  type FieldValues,
  type Path,
  type UseFormProps,
  type UseFormReturn,
  type UseFormSetError,
} from 'react-hook-form';
import Form from 'react-bootstrap/Form';
import type { z } from 'zod';
import { ApiError } from './api';

type AnySchema = z.ZodType<unknown, FieldValues>;

/** A form checked by `schema` on every change (and all at once on submit). */
export function useZodForm<S extends AnySchema>(
  schema: S,
  options: Omit<UseFormProps<z.input<S> & FieldValues, unknown, z.output<S>>, 'resolver'> = {},
): UseFormReturn<z.input<S> & FieldValues, unknown, z.output<S>> {
  return useForm<z.input<S> & FieldValues, unknown, z.output<S>>({
    mode: 'onChange',
    reValidateMode: 'onChange',
    resolver: zodResolver(schema as never) as never,
    ...options,
  });
}

/**
 * Puts each field error of a refused call on its field (the server's path, dots between levels).
 * `fields` lists the form's fields, or maps a server path to the field showing it (null: none),
 * for forms whose one input stands for a list (`excludedNames.3` → `excludedNames`).
 * Returns true when at least one landed; the toast already said the first.
 */
export function setServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly string[] | ((path: string) => string | null),
): boolean {
  if (!(error instanceof ApiError)) return false;
  const fieldOf = typeof fields === 'function' ? fields : (path: string) => (fields.includes(path) ? path : null);
  let landed = false;
  const done = new Set<string>();
  for (const f of error.fields) {
    const field = fieldOf(f.path);
    if (field === null || done.has(field)) continue;
    done.add(field);
    setError(field as Path<T>, { type: 'server', message: f.message }, { shouldFocus: !landed });
    landed = true;
  }
  return landed;
}

/** The field's message, announced to screen readers; shown when `message` is set. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return (
    <Form.Control.Feedback type="invalid" id={id} role={message ? 'alert' : undefined}>
      {message}
    </Form.Control.Feedback>
  );
}

/** "123 / 2000 characters" under a long text field; warns near and over the limit. */
export function CharCounter({ id, length, max }: { id: string; length: number; max: number }) {
  const tone = length > max ? 'text-danger' : length >= max * 0.9 ? 'text-warning' : 'text-body-secondary';
  return (
    <small id={id} className={`d-block text-end text-nowrap ${tone}`}>
      {length} / {max} characters
    </small>
  );
}
