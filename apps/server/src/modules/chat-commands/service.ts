/**
 * Custom chat commands (docs/features/custom-commands.md): what Admin → Commands edits (commands,
 * the aliases of built-ins, timers), the word table the chat handler reads, and one use of a
 * command: the per-user and global cooldowns and the points cost, decided in one transaction whose
 * guards are conditional writes, so two processes answer one caller once per cooldown window.
 */
import { asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  linkPages,
  parseTemplate,
  randomIn,
  renderTemplate,
  type BuiltinCommand,
  type ChatTimer,
  type CommandBody,
  type CommandPermission,
  type CommandsOverview,
  type CustomCommand,
  type TemplatePart,
  type TimerBody,
} from '@kickback/common/http/chat-commands';
import { leaderboardSites } from '@kickback/common/http/leaderboards';
import type { Locale } from '@kickback/common/i18n/locales';
import { centsToText, formatAmount, toCents } from '@kickback/common/money';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import {
  chatBuiltinAliases,
  chatCommands,
  chatTimers,
  type ChatCommandRow,
  type ChatTimerRow,
} from '../../db/schema/chat-commands';
import { users } from '../../db/schema/users';
import type { ChatMessage } from '../../integrations/kick/chat-message';
import { transactionThen } from '../../lib/after-commit';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors';
import { t } from '../../lib/i18n';
import { recordAudit, type Actor } from '../audit/service';
import type { LinkedChatter } from '../chat/service';
import { InsufficientBalanceError, applyBalanceChange, OutstandingDebtError } from '../ledger/service';
import { chatLocale } from '../languages/service';
import { builtinByName, builtins } from './builtins';

/** How old the word table may be before a process reads it again (edits in another process). */
export const WORDS_FRESH_MS = 5_000;

export const siteSlugs = leaderboardSites.map((s) => s.slug);

export type Word =
  | { kind: 'custom'; command: ChatCommandRow; parts: TemplatePart[] }
  | { kind: 'builtin'; name: string; parts: TemplatePart[] | null };

/** Why a use was refused; `reply` is said in chat, a refusal without it is ignored silently. */
const localizedBuiltins = new Map<string, TemplatePart[] | null>();

/**
 * A built-in's answer template in `locale` (`bot:builtin_points`, …), parsed once per language; null
 * for a built-in answered by another feature.
 */
export function builtinParts(locale: Locale, name: string): TemplatePart[] | null {
  const key = `${locale}:${name}`;
  let parts = localizedBuiltins.get(key);
  if (parts === undefined) {
    parts = builtinByName.get(name)?.template ? checkTemplate(t(locale, 'bot:builtin', { context: name }), 'x') : null;
    localizedBuiltins.set(key, parts);
  }
  return parts;
}

export class UseRefused extends Error {
  constructor(
    readonly why: 'cooldown' | 'short' | 'unlinked' | 'repeat' | 'disabled',
    readonly reply: string | null = null,
  ) {
    super(why);
  }
}

export interface UseResult {
  uses: number;
  balance: string | null;
}

export function presentCommand(row: ChatCommandRow): CustomCommand {
  return {
    id: row.id,
    name: row.name,
    aliases: row.aliases,
    response: row.response,
    userCooldownSeconds: row.userCooldownSeconds,
    globalCooldownSeconds: row.globalCooldownSeconds,
    permission: row.permission as CommandPermission,
    liveOnly: row.liveOnly,
    cost: centsToText(toCents(row.cost)),
    enabled: row.enabled,
    uses: Number(row.uses),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

export function presentTimer(row: ChatTimerRow): ChatTimer {
  return {
    id: row.id,
    name: row.name,
    message: row.message,
    intervalMinutes: row.intervalMinutes,
    minLines: row.minLines,
    liveOnly: row.liveOnly,
    enabled: row.enabled,
    position: row.position,
    posts: Number(row.posts),
    lastPostedAt: row.lastPostedAt?.toISOString() ?? null,
  };
}

/** A template's problems as a 400 naming each (the unknown variables first). */
export function checkTemplate(template: string, field: string): TemplatePart[] {
  const { parts, problems } = parseTemplate(template, siteSlugs);
  if (problems.length > 0) {
    throw new AppError(400, problems.join('. ') + '.', [{ path: field, message: problems.join('. ') + '.' }]);
  }
  return parts;
}

export class ChatCommandService {
  private words: { at: number; table: Map<string, Word> } | null = null;
  private reading: Promise<Map<string, Word>> | null = null;

  constructor(private readonly app: FastifyInstance) {}

  private get now(): Date {
    return this.app.clock.now();
  }

  // ------------------------------------------------------------------ the word table

  /** The command words (without "!") of every enabled custom command, alias and built-in. */
  async table(): Promise<Map<string, Word>> {
    const cached = this.words;
    if (cached && this.app.clock.now().getTime() - cached.at < WORDS_FRESH_MS) return cached.table;
    this.reading ??= this.read().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  /**
   * The table as last read (the pipeline's cheap test before a message is recorded), or null
   * before the first read; when it is old, a read starts in the background. No promise and no
   * statement while it is fresh.
   */
  cachedTable(): Map<string, Word> | null {
    if (!this.freshTable()) void this.table().catch(() => undefined);
    return this.words?.table ?? null;
  }

  /** The table when it is fresh, else null (then `table()` reads it). */
  freshTable(): Map<string, Word> | null {
    const cached = this.words;
    return cached && this.app.clock.now().getTime() - cached.at < WORDS_FRESH_MS ? cached.table : null;
  }

  /** A command or alias changed here: read again before the next message. */
  forget(): void {
    this.words = null;
  }

  private async read(): Promise<Map<string, Word>> {
    const at = this.app.clock.now().getTime();
    const [commands, aliases] = await Promise.all([
      this.app.db.select().from(chatCommands).where(eq(chatCommands.enabled, true)),
      this.app.db.select().from(chatBuiltinAliases),
    ]);
    const table = new Map<string, Word>();
    for (const b of builtins) {
      table.set(b.name, { kind: 'builtin', name: b.name, parts: b.template ? checkTemplate(b.template, 'x') : null });
    }
    for (const a of aliases) {
      const b = builtinByName.get(a.builtin);
      if (b)
        table.set(a.alias, {
          kind: 'builtin',
          name: b.name,
          parts: b.template ? checkTemplate(b.template, 'x') : null,
        });
    }
    for (const c of commands) {
      const { parts } = parseTemplate(c.response, siteSlugs);
      for (const word of [c.name, ...c.aliases]) table.set(word, { kind: 'custom', command: c, parts });
    }
    this.words = { at, table };
    return table;
  }

  // ------------------------------------------------------------------ Admin → Commands

  async overview(): Promise<CommandsOverview> {
    const [commands, aliases, timers] = await Promise.all([
      this.app.db.select().from(chatCommands).orderBy(asc(chatCommands.name)),
      this.app.db.select().from(chatBuiltinAliases).orderBy(asc(chatBuiltinAliases.alias)),
      this.app.db.select().from(chatTimers).orderBy(asc(chatTimers.position), asc(chatTimers.createdAt)),
    ]);
    const builtinList: BuiltinCommand[] = builtins.map((b) => ({
      name: b.name,
      description: b.description,
      aliases: aliases.filter((a) => a.builtin === b.name).map((a) => a.alias),
    }));
    return {
      commands: commands.map(presentCommand),
      builtins: builtinList,
      timers: timers.map(presentTimer),
      sites: siteSlugs,
    };
  }

  /**
   * Every word must name one command: a clash with another custom command, an alias or a built-in
   * is a 409 naming what has it. Called with the table lock held.
   */
  private async checkWords(tx: Tx, words: string[], own: { commandId?: string; builtin?: string }) {
    const seen = new Set<string>();
    for (const w of words) {
      if (seen.has(w)) throw badRequest(`!${w} is named twice.`, 'aliases');
      seen.add(w);
    }
    const others = await tx.select().from(chatCommands);
    const aliases = await tx.select().from(chatBuiltinAliases);
    for (const w of words) {
      const builtin = builtinByName.get(w);
      if (builtin && builtin.name !== own.builtin) throw conflict(`!${w} is a built-in command.`, 'name');
      const other = others.find((c) => c.id !== own.commandId && (c.name === w || c.aliases.includes(w)));
      if (other) throw conflict(`!${w} is already used by the command !${other.name}.`, 'name');
      const alias = aliases.find((a) => a.alias === w && a.builtin !== own.builtin);
      if (alias) throw conflict(`!${w} is already an alias of the built-in !${alias.builtin}.`, 'name');
    }
  }

  private lockWords(tx: Tx) {
    // One writer of command words at a time, so two saves cannot both take one word.
    return tx.execute(sql`LOCK TABLE chat_builtin_aliases IN EXCLUSIVE MODE`);
  }

  async create(actor: Actor, body: CommandBody & { name: string; aliases: string[] }): Promise<CustomCommand> {
    checkTemplate(body.response, 'response');
    const row = await transactionThen(
      this.app.db,
      async (tx, after) => {
        await this.lockWords(tx);
        await this.checkWords(tx, [body.name, ...body.aliases], {});
        const [created] = await tx
          .insert(chatCommands)
          .values({ ...this.columns(body), createdAt: this.now, updatedAt: this.now })
          .returning();
        await recordAudit(tx, actor, {
          action: 'commands.create',
          targetType: 'chat_command',
          targetId: created!.id,
          after: body,
        });
        after.push(() => this.forget());
        return created!;
      },
      this.app.log,
    );
    return presentCommand(row);
  }

  async update(
    actor: Actor,
    id: string,
    body: CommandBody & { name: string; aliases: string[] },
  ): Promise<CustomCommand> {
    checkTemplate(body.response, 'response');
    const row = await transactionThen(
      this.app.db,
      async (tx, after) => {
        await this.lockWords(tx);
        await this.checkWords(tx, [body.name, ...body.aliases], { commandId: id });
        const [updated] = await tx
          .update(chatCommands)
          .set({ ...this.columns(body), updatedAt: this.now })
          .where(eq(chatCommands.id, id))
          .returning();
        if (!updated) throw notFound('Unknown command.');
        await recordAudit(tx, actor, {
          action: 'commands.update',
          targetType: 'chat_command',
          targetId: id,
          after: body,
        });
        after.push(() => this.forget());
        return updated;
      },
      this.app.log,
    );
    return presentCommand(row);
  }

  async remove(actor: Actor, id: string): Promise<{ ok: true }> {
    await transactionThen(this.app.db, async (tx, after) => {
      const [gone] = await tx.delete(chatCommands).where(eq(chatCommands.id, id)).returning();
      if (!gone) throw notFound('Unknown command.');
      await recordAudit(tx, actor, {
        action: 'commands.delete',
        targetType: 'chat_command',
        targetId: id,
        after: { name: gone.name },
      });
      after.push(() => this.forget());
    });
    return { ok: true };
  }

  async setBuiltinAliases(actor: Actor, name: string, aliases: string[]): Promise<BuiltinCommand> {
    const builtin = builtinByName.get(name);
    if (!builtin) throw notFound('Unknown built-in command.');
    await transactionThen(this.app.db, async (tx, after) => {
      await this.lockWords(tx);
      await this.checkWords(tx, aliases, { builtin: name });
      await tx.delete(chatBuiltinAliases).where(eq(chatBuiltinAliases.builtin, name));
      if (aliases.length > 0)
        await tx.insert(chatBuiltinAliases).values(aliases.map((alias) => ({ alias, builtin: name })));
      await recordAudit(tx, actor, {
        action: 'commands.builtin',
        targetType: 'chat_command',
        targetId: name,
        after: { aliases },
      });
      after.push(() => this.forget());
    });
    return { name, description: builtin.description, aliases };
  }

  private columns(body: CommandBody & { name: string; aliases: string[] }) {
    return {
      name: body.name,
      aliases: body.aliases,
      response: body.response,
      userCooldownSeconds: body.userCooldownSeconds,
      globalCooldownSeconds: body.globalCooldownSeconds,
      permission: body.permission,
      liveOnly: body.liveOnly,
      cost: centsToText(toCents(body.cost)),
      enabled: body.enabled,
    };
  }

  // ------------------------------------------------------------------ timers

  async createTimer(actor: Actor, body: TimerBody): Promise<ChatTimer> {
    checkTemplate(body.message, 'message');
    const row = await transactionThen(this.app.db, async (tx) => {
      const [last] = rowsOf<{ next: number }>(
        await tx.execute(sql`SELECT COALESCE(max(position) + 1, 0)::int AS next FROM chat_timers`),
      );
      const [created] = await tx
        .insert(chatTimers)
        .values({ ...body, position: last?.next ?? 0, createdAt: this.now })
        .returning();
      await recordAudit(tx, actor, {
        action: 'commands.timer.create',
        targetType: 'chat_timer',
        targetId: created!.id,
        after: body,
      });
      return created!;
    });
    return presentTimer(row);
  }

  async updateTimer(actor: Actor, id: string, body: TimerBody): Promise<ChatTimer> {
    checkTemplate(body.message, 'message');
    const row = await transactionThen(this.app.db, async (tx) => {
      const [updated] = await tx.update(chatTimers).set(body).where(eq(chatTimers.id, id)).returning();
      if (!updated) throw notFound('Unknown timer.');
      await recordAudit(tx, actor, {
        action: 'commands.timer.update',
        targetType: 'chat_timer',
        targetId: id,
        after: body,
      });
      return updated;
    });
    return presentTimer(row);
  }

  async removeTimer(actor: Actor, id: string): Promise<{ ok: true }> {
    await transactionThen(this.app.db, async (tx) => {
      const [gone] = await tx.delete(chatTimers).where(eq(chatTimers.id, id)).returning();
      if (!gone) throw notFound('Unknown timer.');
      await recordAudit(tx, actor, {
        action: 'commands.timer.delete',
        targetType: 'chat_timer',
        targetId: id,
        after: { name: gone.name },
      });
    });
    return { ok: true };
  }

  // ------------------------------------------------------------------ a use in chat

  /**
   * One use of a custom command by a chatter, all or nothing: the per-user cooldown (an upsert
   * whose update only happens when the caller's last use is old enough), the global cooldown and
   * the usage count (one UPDATE whose WHERE requires the last use to be old enough: a second
   * process waiting on the row's lock finds it fresh and changes nothing), the message marked
   * handled, and the cost taken through the ledger. A refusal rolls back every part.
   */
  async use(
    command: ChatCommandRow,
    message: ChatMessage,
    linkedUser: LinkedChatter | null,
    once: (tx: Tx) => Promise<boolean>,
  ): Promise<UseResult> {
    const now = this.now;
    return this.app.db.transaction(async (raw) => {
      const tx = raw as Tx;
      if (!(await once(tx))) throw new UseRefused('repeat');
      if (command.userCooldownSeconds > 0) {
        const since = new Date(now.getTime() - command.userCooldownSeconds * 1000);
        const mine = await tx.execute(sql`
          INSERT INTO chat_command_uses (command_id, kick_user_id, last_used_at)
          VALUES (${command.id}, ${message.kickUserId}, ${now.toISOString()}::timestamptz)
          ON CONFLICT (command_id, kick_user_id) DO UPDATE SET last_used_at = EXCLUDED.last_used_at
          WHERE chat_command_uses.last_used_at <= ${since.toISOString()}::timestamptz
          RETURNING 1 AS ok`);
        if (rowsOf(mine).length === 0) throw new UseRefused('cooldown');
      }
      const used = rowsOf<{ uses: string | number; cost: string; name: string }>(
        await tx.execute(sql`
          UPDATE chat_commands SET uses = uses + 1, last_used_at = ${now.toISOString()}::timestamptz
          WHERE id = ${command.id} AND enabled
            AND (last_used_at IS NULL
                 OR last_used_at <= ${now.toISOString()}::timestamptz - make_interval(secs => global_cooldown_seconds))
          RETURNING uses, cost::text AS cost, name`),
      );
      const row = used[0];
      if (!row) throw new UseRefused('cooldown');
      let balance: string | null = null;
      if (toCents(row.cost) > 0n) {
        if (!linkedUser) {
          throw new UseRefused('unlinked', t(chatLocale(this.app), 'bot:commandUnlinked', { command: row.name }));
        }
        try {
          const paid = await applyBalanceChange(tx, {
            userId: linkedUser.id,
            currency: 'points',
            delta: `-${row.cost}`,
            reason: 'chat_command',
            reference: command.id,
            memo: `!${row.name}`,
          });
          if (!paid) throw new InsufficientBalanceError('points');
          balance = paid.balance;
        } catch (err) {
          if (err instanceof OutstandingDebtError)
            throw new UseRefused('short', t(chatLocale(this.app), 'ledger:debt'));
          if (err instanceof InsufficientBalanceError) {
            const [me] = await tx.select({ points: users.points }).from(users).where(eq(users.id, linkedUser.id));
            throw new UseRefused(
              'short',
              t(chatLocale(this.app), 'bot:commandShort', {
                command: row.name,
                cost: formatAmount(row.cost),
                balance: formatAmount(me?.points ?? '0'),
              }),
            );
          }
          throw err;
        }
      }
      return { uses: Number(row.uses), balance };
    });
  }

  /** Fills a template for one chat message (`uses` for {count}). */
  async render(
    parts: readonly TemplatePart[],
    message: ChatMessage,
    linkedUser: LinkedChatter | null,
    result: { uses: number; balance: string | null },
  ): Promise<string> {
    const arg = message.content.trim().split(/\s+/)[1]?.replace(/^@/, '');
    const target = arg && /^[\w.-]{1,40}$/.test(arg) ? arg : message.kickUsername;
    const values = new Map<string, string>();
    for (const p of parts) {
      if (!p.name) continue;
      const key = `${p.name}:${p.arg ?? ''}`;
      if (values.has(key) && p.name !== 'random') continue;
      values.set(key, await this.value(p, { message, linkedUser, result, target }));
    }
    return renderTemplate(parts, (p) =>
      p.name === 'random' ? randomIn(p.arg ?? '') : (values.get(`${p.name}:${p.arg ?? ''}`) ?? '?'),
    );
  }

  private async value(
    p: TemplatePart,
    c: { message: ChatMessage; linkedUser: LinkedChatter | null; result: UseResult; target: string },
  ): Promise<string> {
    switch (p.name) {
      case 'user':
        return c.message.kickUsername;
      case 'target':
        return c.target;
      case 'count':
        return String(c.result.uses);
      case 'balance': {
        if (c.result.balance !== null) return formatAmount(c.result.balance);
        if (!c.linkedUser) return formatAmount(0);
        const [me] = await this.app.db
          .select({ points: users.points })
          .from(users)
          .where(eq(users.id, c.linkedUser.id));
        return formatAmount(me?.points ?? '0');
      }
      case 'link':
        return `${this.app.config.publicUrl}${linkPages[p.arg ?? ''] ?? '/'}`;
      case 'uptime':
        return this.uptime();
      case 'rank':
      case 'wager': {
        const site = leaderboardSites.find((s) => s.slug === p.arg);
        if (!site) return '?';
        const board = await this.app.leaderboards.board(site.id, 'now').catch(() => null);
        const entry = board?.data.find((e) => e.userName.toLowerCase() === c.target.toLowerCase());
        if (p.name === 'rank') return entry ? `#${entry.rank}` : 'unranked';
        return entry?.wageredAmount != null ? `$${formatAmount(entry.wageredAmount)}` : '$0';
      }
      default:
        return '?';
    }
  }

  private async uptime(): Promise<string> {
    const [row] = rowsOf<{ is_live: boolean; changed_at: string | Date }>(
      await this.app.db.execute(sql`SELECT is_live, changed_at FROM kick_live_state WHERE id = 1`),
    );
    if (!row?.is_live) return 'offline';
    const minutes = Math.max(0, Math.floor((this.now.getTime() - new Date(row.changed_at).getTime()) / 60_000));
    return minutes >= 60 ? `${Math.floor(minutes / 60)}h ${minutes % 60}m` : `${minutes}m`;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    chatCommands: ChatCommandService;
  }
}
