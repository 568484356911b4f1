/**
 * The shape every real-time hub shares (docs/architecture.md#the-real-time-path): a Socket.IO
 * namespace, the handshake query it needs, its calls (an emit with acknowledgement carrying the
 * contract's method name, answered `{ ok: true, data }` or `{ ok: false, error }`) and its events
 * (server emits with the contract's event name). Server and web both type themselves from one
 * definition; the server still parses every incoming payload with the call's schema.
 */
import { z } from 'zod';
import type { AccessLevel } from '../access';

export interface CallSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I;
  output: O;
  /**
   * Who may make the call (access.ts), checked by the hub layer before the handler runs against
   * the session as of the call: an answer `{ ok: false, error }` with the sign-in or forbidden
   * message otherwise. Handlers still check what only they know (a game's owner, a seat).
   */
  access: AccessLevel;
}

export interface HubSpec {
  /** Namespace path, e.g. `/SplitOrSteal`. */
  namespace: `/${string}`;
  /** The handshake query (`?gameid=…`). */
  query: z.ZodType<Record<string, unknown>, Record<string, string>>;
  calls: Record<string, CallSpec>;
  events: Record<string, z.ZodType>;
}

export function defineHub<const H extends HubSpec>(hub: H): H {
  return hub;
}

export function call<I extends z.ZodType, O extends z.ZodType>(
  input: I,
  output: O,
  access: AccessLevel,
): CallSpec<I, O> {
  return { input, output, access };
}

/** The input of a call that takes nothing (the client sends no argument, or null). */
export const noPayload = z.null().optional();

export type HubResult<T> = { ok: true; data: T } | { ok: false; error: string };

export type CallName<H extends HubSpec> = keyof H['calls'] & string;
export type CallInput<H extends HubSpec, C extends CallName<H>> = z.input<H['calls'][C]['input']>;
export type CallOutput<H extends HubSpec, C extends CallName<H>> = z.output<H['calls'][C]['output']>;
export type EventName<H extends HubSpec> = keyof H['events'] & string;
export type EventPayload<H extends HubSpec, E extends EventName<H>> = z.output<H['events'][E]>;
export type HubQuery<H extends HubSpec> = z.output<H['query']>;

/** Why a handshake was refused: travels as the connect error's `data.code`. */
export const hubRefusals = [
  'unauthorized',
  'bad_query',
  'not_found',
  'forbidden',
  'origin',
  'unavailable',
  'too_many',
] as const;
export type HubRefusal = (typeof hubRefusals)[number];

/** Per-socket limits every hub applies (the client keeps well inside them). */
export const HUB_MAX_PAYLOAD_BYTES = 16 * 1024;
