/**
 * The streamer's simulated Discord server: its roles (with positions and permissions, as Discord
 * orders them: a higher position is above), the bot's own role, the members' roles, its text
 * channels and what was posted there. Every simulated user is a member unless the bot shares no
 * server with them (`SimulatedBot.sharesServer`). Knobs for tests and the dev page: take the bot's
 * Manage Roles away, lower its role under the ones it gives, answer every Nth role call with a 429.
 */
import type { SimulatedBot } from './bot-state';

export const SIM_GUILD_ID = '1200000000000000001';
export const SIM_BOT_ROLE_ID = '1200000000000000010';
export const SIM_CHANNEL_ID = '1200000000000000100';
const MANAGE_ROLES = 1n << 28n;

export interface SimRole {
  id: string;
  name: string;
  position: number;
  permissions: string;
  managed: boolean;
}

export interface GuildPost {
  id: string;
  channelId: string;
  content: string;
  at: string;
}

/** The roles the simulated server starts with (ids fixed, so a journey can pick them by name). */
export const SIM_ROLES: readonly SimRole[] = [
  { id: SIM_GUILD_ID, name: '@everyone', position: 0, permissions: '0', managed: false },
  { id: '1200000000000000011', name: 'Linked', position: 1, permissions: '0', managed: false },
  { id: '1200000000000000012', name: 'Subscriber', position: 2, permissions: '0', managed: false },
  { id: '1200000000000000013', name: 'VIP', position: 3, permissions: '0', managed: false },
  { id: '1200000000000000014', name: 'Code user', position: 4, permissions: '0', managed: false },
  { id: SIM_BOT_ROLE_ID, name: 'Kickback', position: 5, permissions: String(MANAGE_ROLES), managed: true },
  { id: '1200000000000000016', name: 'Moderators', position: 6, permissions: '0', managed: false },
];

export class SimulatedGuild {
  readonly id = SIM_GUILD_ID;
  readonly name = 'Vex community';
  readonly channels = new Map<string, string>([[SIM_CHANNEL_ID, 'go-live']]);
  private roles: SimRole[] = SIM_ROLES.map((r) => ({ ...r }));
  private readonly members = new Map<string, Set<string>>();
  readonly posts: GuildPost[] = [];
  /** Every role call (PUT and DELETE) that changed something, in order: tests count them. */
  readonly roleCalls: Array<{ method: 'PUT' | 'DELETE'; userId: string; roleId: string }> = [];
  /** 0: never; n: every nth role call or channel post answers 429 once. */
  rateLimitEvery = 0;
  rateLimited = 0;
  private callCounter = 0;
  forbidden = 0;
  /** When true, a post to the server's channels answers 403 (the bot may not write there). */
  postsForbidden = false;
  readonly botRoleId = SIM_BOT_ROLE_ID;
  private postCounter = 0;

  constructor(private readonly bot: SimulatedBot) {}

  allRoles(): SimRole[] {
    return this.roles.map((r) => ({ ...r }));
  }

  role(id: string): SimRole | null {
    return this.roles.find((r) => r.id === id) ?? null;
  }

  isMember(userId: string): boolean {
    return this.bot.sharesServer(userId);
  }

  rolesOf(userId: string): string[] {
    return [...(this.members.get(userId) ?? [])];
  }

  /** Sets a member's roles by hand (drift made in Discord, which the reconcile repairs). */
  setRolesOf(userId: string, roleIds: string[]): void {
    this.members.set(userId, new Set(roleIds));
  }

  botCanManageRoles(): boolean {
    const bot = this.role(SIM_BOT_ROLE_ID);
    return bot !== null && (BigInt(bot.permissions) & MANAGE_ROLES) !== 0n;
  }

  setBotManageRoles(on: boolean): void {
    const bot = this.role(SIM_BOT_ROLE_ID);
    if (bot) bot.permissions = on ? String(MANAGE_ROLES) : '0';
  }

  /** Moves the bot's role to `position` (the others keep their order around it). */
  setBotPosition(position: number): void {
    const bot = this.role(SIM_BOT_ROLE_ID);
    if (bot) bot.position = position;
  }

  botTop(): number {
    return this.role(SIM_BOT_ROLE_ID)?.position ?? 0;
  }

  /** True when this call should be answered with a 429 instead. */
  takeRateLimit(): boolean {
    if (this.rateLimitEvery <= 0) return false;
    this.callCounter += 1;
    if (this.callCounter % this.rateLimitEvery !== 0) return false;
    this.rateLimited += 1;
    return true;
  }

  give(userId: string, roleId: string): void {
    const set = this.members.get(userId) ?? new Set<string>();
    this.members.set(userId, set);
    this.roleCalls.push({ method: 'PUT', userId, roleId });
    set.add(roleId);
  }

  take(userId: string, roleId: string): void {
    this.roleCalls.push({ method: 'DELETE', userId, roleId });
    this.members.get(userId)?.delete(roleId);
  }

  post(channelId: string, content: string, at: string): GuildPost {
    this.postCounter += 1;
    const post = { id: String(1_300_000_000_000_000_000n + BigInt(this.postCounter)), channelId, content, at };
    this.posts.push(post);
    return post;
  }

  /** What the dev page and tests read. */
  snapshot() {
    return {
      id: this.id,
      name: this.name,
      roles: this.allRoles(),
      members: [...this.members.entries()].map(([userId, roles]) => ({ userId, roles: [...roles] })),
      posts: [...this.posts],
      roleCalls: this.roleCalls.length,
      rateLimited: this.rateLimited,
      forbidden: this.forbidden,
      botCanManageRoles: this.botCanManageRoles(),
    };
  }

  clear(): void {
    this.members.clear();
    this.posts.length = 0;
    this.roleCalls.length = 0;
    this.roles = SIM_ROLES.map((r) => ({ ...r }));
    this.rateLimitEvery = 0;
    this.postsForbidden = false;
  }
}
