/**
 * The go-live post (docs/features/discord-roles.md#go-live-posts): when Kick says the stream went
 * live (`livestream.status.updated` with `is_live`), one message with the title, the category and
 * the channel's link goes to the chosen Discord channel. Exactly once per stream, whichever process
 * got the delivery and however often Kick repeats it: the post is a row keyed by the stream's start
 * (written in the delivery's transaction, a repeat finds the key taken), and it is sent by whichever
 * process claims its lease, then marked posted.
 */
import type { Locale } from '@kickback/common/i18n/locales';
import { t } from '../../lib/i18n';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { discordGoLivePosts } from '../../db/schema/discord-roles';
import { kickLiveState } from '../../db/schema/kick-bot';
import type { KickEventMeta } from '../../integrations/kick/event-handlers';
import { kickDate, livestreamStatus } from '../../integrations/kick/events';
import { GuildCallFailed, type DiscordGuildClient } from '../../integrations/discord/guild';
import { siteConfigNow } from '../site/service';
import { readRoleSettings, recordProblem } from './settings';

const POST_LEASE_MS = 60_000;
/** A live event older than this (a late redelivery) posts nothing. */
const STALE_MS = 6 * 60 * 60_000;
const KEY_BUCKET_MS = 10 * 60_000;
const MAX_TITLE = 200;

/**
 * The stream's key: its start as Kick reports it; without one, the ten minutes the delivery was
 * sent in (Kick repeats a delivery within seconds).
 */
export function streamKey(startedAt: Date | null, sentAt: Date): string {
  if (startedAt) return `start:${startedAt.toISOString()}`;
  return `sent:${new Date(Math.floor(sentAt.getTime() / KEY_BUCKET_MS) * KEY_BUCKET_MS).toISOString()}`;
}

/** In the delivery's transaction: records the stream's post once. True when this call recorded it. */
export async function recordGoLive(tx: Tx, payload: unknown, meta: KickEventMeta): Promise<boolean> {
  const event = livestreamStatus.parse(payload);
  if (!event.is_live) return false;
  const startedAt = kickDate(event.started_at);
  if ((startedAt ?? meta.sentAt).getTime() < meta.receivedAt.getTime() - STALE_MS) return false;
  const settings = await readRoleSettings(tx);
  if (!settings.goLiveChannelId) return false;
  const [live] = await tx
    .select({ title: kickLiveState.title, category: kickLiveState.category })
    .from(kickLiveState)
    .where(eq(kickLiveState.id, 1));
  const rows = await tx
    .insert(discordGoLivePosts)
    .values({
      streamKey: streamKey(startedAt, meta.sentAt),
      title: (event.title ?? live?.title ?? null)?.slice(0, MAX_TITLE) ?? null,
      category: live?.category ?? null,
      createdAt: meta.receivedAt,
    })
    .onConflictDoNothing()
    .returning({ key: discordGoLivePosts.streamKey });
  return rows.length > 0;
}

/** The post, in the site's default language (docs/features/languages.md#server-messages). */
export function goLiveText(
  streamer: string,
  title: string | null,
  category: string | null,
  url: string,
  locale: Locale = 'en',
): string {
  const lines = [`🔴 **${t(locale, 'discord:goLive', { streamer })}**${title ? ` ${title}` : ''}`];
  if (category) lines.push(t(locale, 'discord:goLivePlaying', { category }));
  lines.push(url);
  return lines.join('\n');
}

interface ClaimedPost {
  stream_key: string;
  title: string | null;
  category: string | null;
}

export class GoLivePoster {
  private running: Promise<void> | null = null;

  constructor(
    private readonly app: FastifyInstance,
    private readonly client: () => DiscordGuildClient | null,
  ) {}

  private get db(): Db {
    return this.app.db;
  }

  kick(): Promise<void> {
    if (!this.client()) return Promise.resolve();
    this.running ??= this.drain()
      .catch((err: unknown) => this.app.log.error({ err }, 'discord go-live post failed'))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async drain(): Promise<void> {
    for (;;) {
      const post = await this.claim();
      if (!post) return;
      await this.send(post);
    }
  }

  /** Takes a pending post nobody holds; the lease keeps every other process off it while it is sent. */
  async claim(): Promise<ClaimedPost | null> {
    const now = this.app.clock.now();
    const until = new Date(now.getTime() + POST_LEASE_MS).toISOString();
    const [post] = rowsOf<ClaimedPost>(
      await this.db.execute(sql`
        UPDATE discord_go_live_posts SET lease_until = ${until}::timestamptz
        WHERE stream_key = (
          SELECT stream_key FROM discord_go_live_posts
          WHERE status = 'pending' AND (lease_until IS NULL OR lease_until <= ${now.toISOString()}::timestamptz)
          ORDER BY created_at LIMIT 1
          FOR UPDATE SKIP LOCKED
        )
        RETURNING stream_key, title, category
      `),
    );
    return post ?? null;
  }

  private async send(post: ClaimedPost): Promise<void> {
    const client = this.client();
    const settings = await readRoleSettings(this.db);
    const done = (status: 'posted' | 'failed', values: { messageId?: string; lastError?: string }) =>
      this.db
        .update(discordGoLivePosts)
        .set({ status, leaseUntil: null, postedAt: this.app.clock.now(), ...values })
        .where(and(eq(discordGoLivePosts.streamKey, post.stream_key), eq(discordGoLivePosts.status, 'pending')));
    if (!client || !settings.goLiveChannelId) return void (await done('failed', { lastError: 'not configured' }));
    const site = await siteConfigNow(this.app);
    const text = goLiveText(
      site.streamerName,
      post.title,
      post.category,
      site.kickChannelUrl,
      this.app.languages.siteDefault,
    );
    try {
      const messageId = await client.post(settings.goLiveChannelId, text);
      await done('posted', { messageId });
    } catch (err) {
      const call = err instanceof GuildCallFailed ? err : new GuildCallFailed('error', String(err), null);
      if (call.kind === 'error') {
        // Tried again once the lease runs out (a minute), by whichever process claims it.
        await this.db
          .update(discordGoLivePosts)
          .set({ lastError: call.detail })
          .where(eq(discordGoLivePosts.streamKey, post.stream_key));
        return;
      }
      await recordProblem(
        this.db,
        `Discord refused the go-live post (${call.detail}): the bot needs to see the channel and send messages there.`,
        this.app.clock.now(),
      );
      await done('failed', { lastError: call.detail });
    }
  }
}
