/**
 * `npm run admin -- points <steamId> <amount> [--gems] --reason "<text>"`: grant (or, with a
 * negative amount, deduct) points for operators and scripts; the same ledger rule and audit entry
 * as the Admin: Users page, with "shell" as the actor.
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { steamId64 } from '@kickback/common/steam-id';
import { adjustmentAmount, adjustmentReason } from '@kickback/common/http/admin-users';
import { users } from '../../db/schema/users';
import { notFound } from '../../lib/errors';
import { shellActor } from '../audit/service';
import type { ShellCommand } from '../../lib/shell-command';
import { adjustBalance } from './admin-service';

const pointsArgs = z.object({
  steamId: steamId64,
  amount: adjustmentAmount,
  currency: z.enum(['points', 'gems']).default('points'),
  reason: adjustmentReason,
});

/** `<steamId> <amount> [--gems] --reason <text…>` (also `--reason=<text>`). */
export function pointsArgv(argv: string[]): unknown {
  const positional: string[] = [];
  let reason: string | undefined;
  let currency: 'points' | 'gems' = 'points';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--reason') reason = argv[++i];
    else if (arg.startsWith('--reason=')) reason = arg.slice('--reason='.length);
    else if (arg === '--gems') currency = 'gems';
    else positional.push(arg);
  }
  return { steamId: positional[0], amount: positional[1], currency, reason };
}

export const pointsShellCommand = {
  usage: 'points <steamId> <amount> [--gems] --reason "<text>"   (a negative amount deducts)',
  fromArgv: pointsArgv,
  args: pointsArgs,
  async run({ db }, { steamId, amount, currency, reason }) {
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.steamId, steamId));
    if (!user) throw notFound(`No user with SteamID ${steamId}. They must sign in once first.`);
    const { message } = await adjustBalance(db, shellActor, { userId: user.id, currency, amount, reason });
    return message;
  },
} satisfies ShellCommand<typeof pointsArgs>;
