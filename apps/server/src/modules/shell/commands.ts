/**
 * Shell commands (`npm run admin -- …`, `npm run chat -- …`). Each runs against a database handle;
 * the CLI runs it through the running server's control endpoint when one holds the embedded
 * database, or on its own connection otherwise. Features add their commands here; a command's shape
 * (lib/shell-command.ts) is below both, so a command file does not import this list.
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Role } from '@kickback/common/http/auth';
import { steamId64 } from '@kickback/common/steam-id';
import { users } from '../../db/schema/users';
import { AppError, notFound } from '../../lib/errors';
import { notifyEviction } from '../../lib/session-evict-notify';
import type { ShellCommand, ShellContext } from '../../lib/shell-command';
import { recordAudit, shellActor } from '../audit/service';
import { chatShellCommand } from '../chat/shell';
import { pointsShellCommand } from '../users/shell';
import { backupShellCommand, restoreShellCommand } from './backup';

const steamIdArg = z.object({
  steamId: steamId64,
});

/** `grant <steamId> [--role Moderator|Admin]`: Admin unless told. */
const grantArgs = steamIdArg.extend({
  role: z.enum(['Moderator', 'Admin'], { error: 'role must be Moderator or Admin' }).default('Admin'),
});

/** `--role X` or `--role=X` among the words after the command; the rest is positional. */
function grantFromArgv(argv: string[]): { steamId?: string; role?: string } {
  const positional: string[] = [];
  let role: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--role') role = argv[++i] ?? '';
    else if (word.startsWith('--role=')) role = word.slice('--role='.length);
    else positional.push(word);
  }
  return { steamId: positional[0], ...(role === undefined ? {} : { role }) };
}

async function setRole({ db, app }: ShellContext, steamId: string, role: Role): Promise<string> {
  const result = await db.transaction(async (tx) => {
    const [before] = await tx.select().from(users).where(eq(users.steamId, steamId)).for('update');
    if (!before) {
      throw notFound(`No user with SteamID ${steamId}. They must sign in once before a role can be set.`);
    }
    if (before.role === role) return { userId: null, text: `${before.username} (${steamId}) is already ${role}.` };
    await tx.update(users).set({ role }).where(eq(users.id, before.id));
    await recordAudit(tx, shellActor, {
      action: 'user.role',
      targetType: 'user',
      targetId: before.id,
      before: { role: before.role },
      after: { role },
    });
    // Run outside every server (the CLI on PostgreSQL opens the database itself): the running
    // processes hear of it on commit and close the user's sockets (lib/session-evict-notify.ts).
    if (!app) await notifyEviction(tx, { userId: before.id });
    return { userId: before.id, text: `${before.username} (${steamId}) is now ${role}.` };
  });
  // Inside the server (the control endpoint) the change reaches its session cache and sockets at once.
  if (result.userId) app?.sessionCache.evict({ userId: result.userId });
  return result.text;
}

export const shellCommands = {
  grant: {
    usage: 'grant <steamId> [--role Moderator|Admin]   (Admin unless told)',
    fromArgv: grantFromArgv,
    args: grantArgs,
    run: (ctx, { steamId, role }) => setRole(ctx, steamId, role),
  } satisfies ShellCommand<typeof grantArgs>,
  revoke: {
    usage: 'revoke <steamId>',
    fromArgv: ([steamId]) => ({ steamId }),
    args: steamIdArg,
    run: (ctx, { steamId }) => setRole(ctx, steamId, 'User'),
  } satisfies ShellCommand<typeof steamIdArg>,
  chat: chatShellCommand,
  points: pointsShellCommand,
  backup: backupShellCommand,
  restore: restoreShellCommand,
} as const;

export type ShellCommandName = keyof typeof shellCommands;

export function isShellCommand(name: string): name is ShellCommandName {
  return Object.hasOwn(shellCommands, name);
}

/** Validates and runs a command; errors come back as AppError with a message for the operator. */
export async function runShellCommand(ctx: ShellContext, name: string, rawArgs: unknown): Promise<string> {
  if (!isShellCommand(name)) throw new AppError(400, `Unknown command: ${name}`);
  const command: ShellCommand = shellCommands[name];
  const parsed = command.args.safeParse(rawArgs);
  if (!parsed.success) throw new AppError(400, `Invalid arguments: ${z.prettifyError(parsed.error)}`);
  return command.run(ctx, parsed.data);
}
