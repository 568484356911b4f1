/**
 * The moderation settings (docs/features/chat-moderation.md#where-it-runs): one row, read into memory and
 * compiled; every process re-reads it when its copy is a few seconds old, without making a message
 * wait (the message is judged by the copy in hand), so a change reaches every process within
 * FRESH_MS and a message costs one look at the cached object while every filter is off.
 */
import { sql } from 'drizzle-orm';
import {
  DEFAULT_MODERATION_SETTINGS,
  moderationSettings,
  type ModerationSettings,
} from '@kickback/common/http/chat-moderation';
import type { Db, DbOrTx } from '../../db/client';
import { chatModerationSettings } from '../../db/schema/chat-moderation';
import { CompiledFilters } from './filters';

const FRESH_MS = 5_000;

export async function readSettings(db: Db): Promise<{ settings: ModerationSettings; updatedAt: Date | null }> {
  const [row] = await db.select().from(chatModerationSettings);
  if (!row) return { settings: DEFAULT_MODERATION_SETTINGS, updatedAt: null };
  // A setting added later takes its default; a stored value that no longer passes is replaced by it.
  const merged = { ...DEFAULT_MODERATION_SETTINGS, ...(row.settings as Partial<ModerationSettings>) };
  const parsed = moderationSettings.safeParse(merged);
  return { settings: parsed.success ? parsed.data : DEFAULT_MODERATION_SETTINGS, updatedAt: row.updatedAt };
}

export async function writeSettings(db: DbOrTx, settings: ModerationSettings, now: Date): Promise<Date> {
  await db
    .insert(chatModerationSettings)
    .values({ id: 1, settings, updatedAt: now })
    .onConflictDoUpdate({ target: chatModerationSettings.id, set: { settings, updatedAt: sql`excluded.updated_at` } });
  return now;
}

export class SettingsCache {
  private compiled: CompiledFilters;
  private readAt = -Infinity;
  private reading: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly onSlowPattern: (pattern: string, ms: number) => void,
    private readonly onError: (err: unknown) => void,
  ) {
    this.compiled = new CompiledFilters(DEFAULT_MODERATION_SETTINGS, onSlowPattern);
  }

  /** The filters in hand; starts a re-read in the background when they are old. */
  current(): CompiledFilters {
    if (this.now() - this.readAt > FRESH_MS) void this.refresh().catch(this.onError);
    return this.compiled;
  }

  /** Reads the row now (at start, and after this process saved). */
  refresh(): Promise<void> {
    this.reading ??= (async () => {
      const at = this.now();
      const { settings } = await readSettings(this.db);
      // Unchanged settings keep their compiled form (and the repeated-message memory).
      if (JSON.stringify(settings) !== JSON.stringify(this.compiled.settings)) {
        this.compiled = new CompiledFilters(settings, this.onSlowPattern);
      }
      this.readAt = at;
    })().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }
}
