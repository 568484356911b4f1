/**
 * What the simulated Discord knows about our bot: the DM channels it opened, the messages it
 * posted (the last few thousand, newest last — what the inbox page and tests read), which users
 * have their DMs closed and which share no server with the bot (both answer 50007, the latter from
 * the very first message, as Discord does), each DM channel's rate-limit bucket (reported on every
 * post, as Discord's `X-RateLimit-*` headers are), and an optional forced rate limit (every Nth
 * message post answers 429) and latency to exercise the client's retry and show a broadcast's progress.
 */
import { createHash } from 'node:crypto';
import { demoDmsClosed, simulatedDiscordId } from './directory';

export interface ReceivedMessage {
  id: string;
  channelId: string;
  recipientId: string;
  content: string;
  at: string;
}

const KEEP_MESSAGES = 5000;
/** Discord's DM message bucket: 5 posts per channel per 5 s. */
export const BUCKET_LIMIT = 5;
export const BUCKET_WINDOW_MS = 5000;

export interface BucketState {
  limit: number;
  remaining: number;
  /** Seconds until the bucket refills (Discord sends it with millisecond decimals). */
  resetAfterS: number;
  /** Unix time of the refill, in seconds with decimals. */
  resetAtS: number;
}

function snowflakeFrom(seed: string): string {
  const n = createHash('sha256').update(seed).digest().readBigUInt64BE(0);
  return String(100_000_000_000_000_000n + (n % 800_000_000_000_000_000n));
}

export class SimulatedBot {
  private readonly channels = new Map<string, string>();
  private readonly closed = new Set<string>(demoDmsClosed.map(simulatedDiscordId));
  /** Users who are in none of the bot's servers: Discord refuses their DMs from the start. */
  private readonly strangers = new Set<string>();
  private readonly buckets = new Map<string, { used: number; resetAt: number }>();
  private readonly inbox: ReceivedMessage[] = [];
  private messageCounter = 0;
  private postCounter = 0;
  /** 0: never; n: every nth message post answers 429 once. */
  rateLimitEvery = 0;
  rateLimited = 0;
  /** How long each message post takes (ms), like a slow network: makes progress visible in demos. */
  latencyMs = 0;
  /** Message posts that may still go through before the rest wait for `release()` (null: no hold). */
  private holdAfter: number | null = null;
  private releaseHeld: (() => void) | null = null;
  private heldGate: Promise<void> | null = null;
  /** Posts answered 50007, per recipient (a well-behaved bot does not come back for more). */
  readonly refusals = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** The DM channel with a user (the same one every time, as Discord does). */
  openChannel(recipientId: string): string {
    const id = snowflakeFrom(`dm:${recipientId}`);
    this.channels.set(id, recipientId);
    return id;
  }

  recipientOf(channelId: string): string | null {
    return this.channels.get(channelId) ?? null;
  }

  dmsClosed(discordId: string): boolean {
    return this.closed.has(discordId);
  }

  sharesServer(discordId: string): boolean {
    return !this.strangers.has(discordId);
  }

  setSharesServer(discordId: string, shares: boolean): void {
    if (shares) this.strangers.delete(discordId);
    else this.strangers.add(discordId);
  }

  strangerIds(): string[] {
    return [...this.strangers];
  }

  /** Counts a post against its channel's bucket and says what the headers report after it. */
  spend(channelId: string): BucketState {
    const now = this.now();
    let bucket = this.buckets.get(channelId);
    if (!bucket || bucket.resetAt <= now) {
      bucket = { used: 0, resetAt: now + BUCKET_WINDOW_MS };
      this.buckets.set(channelId, bucket);
    }
    bucket.used = Math.min(BUCKET_LIMIT, bucket.used + 1);
    return {
      limit: BUCKET_LIMIT,
      remaining: BUCKET_LIMIT - bucket.used,
      resetAfterS: (bucket.resetAt - now) / 1000,
      resetAtS: bucket.resetAt / 1000,
    };
  }

  refuse(discordId: string): void {
    this.refusals.set(discordId, (this.refusals.get(discordId) ?? 0) + 1);
  }

  setDmsClosed(discordId: string, closed: boolean): void {
    if (closed) this.closed.add(discordId);
    else this.closed.delete(discordId);
  }

  closedIds(): string[] {
    return [...this.closed];
  }

  /**
   * Lets `posts` more message posts through, then holds every later one until `release()`: a test
   * can look at a broadcast mid-way without racing the clock.
   */
  hold(posts: number): void {
    this.release();
    this.holdAfter = posts;
    this.heldGate = new Promise((resolve) => (this.releaseHeld = resolve));
  }

  release(): void {
    this.releaseHeld?.();
    this.holdAfter = null;
    this.heldGate = null;
    this.releaseHeld = null;
  }

  /** Waits while a hold is on and its allowance is used up; otherwise takes one from it. */
  async passHold(): Promise<void> {
    const gate = this.heldGate;
    if (this.holdAfter === null || !gate) return;
    if (this.holdAfter > 0) {
      this.holdAfter -= 1;
      return;
    }
    await gate;
  }

  /** True when this post should be answered with a 429 instead. */
  takeRateLimit(): boolean {
    if (this.rateLimitEvery <= 0) return false;
    this.postCounter += 1;
    if (this.postCounter % this.rateLimitEvery !== 0) return false;
    this.rateLimited += 1;
    return true;
  }

  receive(channelId: string, recipientId: string, content: string): ReceivedMessage {
    this.messageCounter += 1;
    const message = {
      id: snowflakeFrom(`msg:${channelId}:${this.messageCounter}:${this.now()}`),
      channelId,
      recipientId,
      content,
      at: new Date(this.now()).toISOString(),
    };
    this.inbox.push(message);
    if (this.inbox.length > KEEP_MESSAGES) this.inbox.splice(0, this.inbox.length - KEEP_MESSAGES);
    return message;
  }

  /** Received messages, oldest first; optionally only those to one user. */
  messages(recipientId?: string): ReceivedMessage[] {
    return recipientId ? this.inbox.filter((m) => m.recipientId === recipientId) : [...this.inbox];
  }

  clear(): void {
    this.release();
    this.inbox.length = 0;
    this.refusals.clear();
  }
}
