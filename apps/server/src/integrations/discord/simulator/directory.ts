/**
 * The simulator's Discord users: anyone who types a username on the authorize page exists, with an
 * 18-digit snowflake id derived from the name (one name is always one account). Users who have
 * authorized are remembered in this process, so more simulated endpoints can find them by id.
 */
import { createHash } from 'node:crypto';

export interface SimulatedDiscordUser {
  id: string;
  username: string;
  globalName: string;
}

/** Discord's username rules: 2–32 of a-z, 0-9, `_` and `.`, no `..`. */
export const DISCORD_USERNAME = /^(?!.*\.\.)[a-z0-9_.]{2,32}$/;

export const demoDiscordUsers = ['vexfan', 'luckyluke', 'cratequeen', 'highroller'] as const;

/** More demo accounts (linked to demo site users by the demo data); the last has DMs closed. */
export const demoDiscordCommunity = ['marta.spins', 'jonas_bets', 'tomasz', 'aiko', 'quietpriya'] as const;
export const demoDmsClosed: readonly string[] = ['quietpriya'];

export function simulatedDiscordId(username: string): string {
  const n = createHash('sha256').update(username.toLowerCase()).digest().readBigUInt64BE(0);
  return String(100_000_000_000_000_000n + (n % 800_000_000_000_000_000n));
}

export class SimulatedDiscordDirectory {
  private readonly byId = new Map<string, SimulatedDiscordUser>();

  constructor() {
    for (const name of [...demoDiscordUsers, ...demoDiscordCommunity]) this.user(name);
  }

  /** The user with this username (created on first use). */
  user(username: string): SimulatedDiscordUser {
    const name = username.toLowerCase();
    const id = simulatedDiscordId(name);
    let user = this.byId.get(id);
    if (!user) {
      user = { id, username: name, globalName: name };
      this.byId.set(id, user);
    }
    return user;
  }

  byDiscordId(id: string): SimulatedDiscordUser | null {
    return this.byId.get(id) ?? null;
  }
}
