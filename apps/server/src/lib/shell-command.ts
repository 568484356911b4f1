/**
 * What a shell command (`npm run admin -- …`, `npm run chat -- …`) is. The list of commands lives in
 * modules/shell; a feature's command file and the control endpoint that runs them see only this
 * shape, so neither imports the list.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../db/client';

export interface ShellContext {
  db: Db;
  /** Present when the command runs inside the server (live effects such as chat need it). */
  app?: FastifyInstance;
}

export interface ShellCommand<A extends z.ZodType = z.ZodType> {
  /** How the operator types it, after the script name: "grant <steamId>". */
  usage: string;
  /** argv (after the command word) → the raw arguments `args` validates. */
  fromArgv(argv: string[]): unknown;
  args: A;
  /** Needs the whole app (`ctx.app`); run without a server, the CLI builds one for the command. */
  needsApp?: boolean;
  run(ctx: ShellContext, args: z.infer<A>): Promise<string>;
}

/** Validates and runs a command by name; errors come back as AppError with a message for the operator. */
export type ShellRunner = (ctx: ShellContext, name: string, rawArgs: unknown) => Promise<string>;
