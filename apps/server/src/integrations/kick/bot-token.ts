/**
 * The Kick bot's user token: connected once by an admin (OAuth 2.1 with PKCE, `connect` and
 * `finish`), sealed at rest with KICK_TOKEN_KEY, and kept usable — refreshed shortly before it
 * expires (Kick user tokens last 7,200 s) and after Kick answers 401, saving the new refresh token
 * each time. A lease on the row lets one process refresh at a time; the others wait for its result
 * and use the token it saved. A token read from the row is used from memory for up to HOLD_MS
 * while it is not near its expiry (docs/features/kick-chat.md): a connect,
 * disconnect or refresh here forgets it and tells the other processes (`onChange`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { KickBotConfig } from '../../config';
import type { Db } from '../../db/client';
import { kickBotOauthStates, kickBotTokens, type KickBotTokenRow } from '../../db/schema/kick-bot';
import type { Clock } from '../../lib/clock';
import { SecretBox } from '../../lib/secret-box';

/** Refresh this long before the access token expires. */
export const REFRESH_MARGIN_MS = 5 * 60_000;
const LEASE_MS = 30_000;
const STATE_TTL_MS = 10 * 60_000;
const TIMEOUT_MS = 10_000;
/** How long a token (or its absence) read from the row is used from memory before it is read again. */
export const HOLD_MS = 5_000;

const tokenAnswer = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_in: z.number().positive(),
  scope: z.string().optional(),
});
const usersAnswer = z.object({
  data: z.array(z.object({ user_id: z.union([z.number(), z.string()]).transform(String), name: z.string() })).min(1),
});

export class KickBotError extends Error {
  constructor(
    message: string,
    /** What the admin is told (no secrets). */
    readonly publicMessage: string,
    readonly status: 400 | 502 | 503 = 400,
  ) {
    super(message);
    this.name = 'KickBotError';
  }
}

export interface KickBotState {
  connected: boolean;
  kickUsername: string | null;
  kickUserId: string | null;
  scope: string | null;
  expiresAt: Date | null;
  connectedAt: Date | null;
  refreshedAt: Date | null;
  refreshCount: number;
  lastError: string | null;
  lastErrorAt: Date | null;
}

type OnConfig = Extract<KickBotConfig, { mode: 'kick' | 'simulator' }>;

export class KickBotTokens {
  private readonly box: SecretBox | null;
  private refreshing: Promise<string> | null = null;
  /** The token as last read (null: none connected), its expiry, and when it was read (wall time). */
  private held: { token: string | null; expiresAt: number; readAt: number } | null = null;
  /** Bumped by `forget`, so a read that began before it does not keep what it found. */
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly config: OnConfig,
    private readonly http: typeof fetch,
    private readonly clock: Clock,
    /** Which token this store keeps: 1 the streamer's account, 2 a separate bot account. */
    readonly slot: 1 | 2 = 1,
    /** The row changed here (connected, disconnected, refreshed): the other processes forget theirs. */
    private readonly onChange: () => void = () => undefined,
  ) {
    this.box = config.tokenKey ? new SecretBox(config.tokenKey) : null;
  }

  /** Reads the row again on the next use (it changed, here or in another process). */
  forget(): void {
    this.held = null;
    this.generation += 1;
  }

  private changed(): void {
    this.forget();
    this.onChange();
  }

  private sealer(): SecretBox {
    if (!this.box) {
      throw new KickBotError('no token key', 'Set KICK_TOKEN_KEY (32+ characters) before connecting the Kick bot.');
    }
    return this.box;
  }

  /** Which token a "Connect" in progress connects (null when the state is unknown). */
  static async slotOf(db: Db, state: string): Promise<1 | 2 | null> {
    const [row] = await db
      .select({ slot: kickBotOauthStates.slot })
      .from(kickBotOauthStates)
      .where(eq(kickBotOauthStates.state, state));
    return row ? (row.slot === 2 ? 2 : 1) : null;
  }

  /** Starts "Connect Kick bot": the URL of Kick's consent page, with a fresh state and PKCE challenge. */
  /** Kick's consent URL asking for `scopes` (default: the configured KICK_BOT_SCOPES). */
  async connectUrl(adminId: string, scopes: string = this.config.scopes): Promise<string> {
    const box = this.sealer();
    const state = randomBytes(24).toString('base64url');
    const verifier = randomBytes(48).toString('base64url');
    const now = this.clock.now();
    await this.db.delete(kickBotOauthStates).where(lt(kickBotOauthStates.expiresAt, now));
    await this.db.insert(kickBotOauthStates).values({
      state,
      verifier: box.seal(verifier),
      createdBy: adminId,
      slot: this.slot,
      expiresAt: new Date(now.getTime() + STATE_TTL_MS),
    });
    const url = new URL(`${this.config.oauthUrl}/oauth/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.config.clientId,
      redirect_uri: this.config.redirectUri,
      state,
      scope: scopes,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString();
    return url.toString();
  }

  /** Finishes the flow: checks the state, exchanges the code with the verifier, stores the tokens sealed. */
  async finish(adminId: string, state: string, code: string): Promise<KickBotState> {
    const box = this.sealer();
    const [pending] = await this.db.delete(kickBotOauthStates).where(eq(kickBotOauthStates.state, state)).returning();
    const now = this.clock.now();
    if (!pending || pending.expiresAt < now || pending.createdBy !== adminId || pending.slot !== this.slot) {
      throw new KickBotError('unknown state', 'This sign-in with Kick expired or was not started here. Try again.');
    }
    const verifier = box.open(pending.verifier);
    if (!verifier)
      throw new KickBotError('unreadable verifier', 'This sign-in with Kick cannot be finished. Try again.');
    const tokens = await this.tokenCall({
      grant_type: 'authorization_code',
      code,
      redirect_uri: this.config.redirectUri,
      code_verifier: verifier,
    });
    const who = await this.whoAmI(tokens.access_token);
    const row = {
      id: this.slot,
      kickUserId: who.user_id,
      kickUsername: who.name,
      scope: tokens.scope ?? this.config.scopes,
      accessToken: box.seal(tokens.access_token),
      refreshToken: box.seal(tokens.refresh_token),
      expiresAt: new Date(now.getTime() + tokens.expires_in * 1000),
      connectedBy: adminId,
      connectedAt: now,
      refreshedAt: null,
      refreshCount: 0,
      refreshLeaseUntil: null,
      lastError: null,
      lastErrorAt: null,
    };
    await this.db.insert(kickBotTokens).values(row).onConflictDoUpdate({ target: kickBotTokens.id, set: row });
    this.changed();
    return this.state();
  }

  async disconnect(): Promise<boolean> {
    const gone = await this.db
      .delete(kickBotTokens)
      .where(eq(kickBotTokens.id, this.slot))
      .returning({ id: kickBotTokens.id });
    this.changed();
    return gone.length > 0;
  }

  async state(): Promise<KickBotState> {
    const [row] = await this.db.select().from(kickBotTokens).where(eq(kickBotTokens.id, this.slot));
    return {
      connected: Boolean(row),
      kickUsername: row?.kickUsername ?? null,
      kickUserId: row?.kickUserId ?? null,
      scope: row?.scope ?? null,
      expiresAt: row?.expiresAt ?? null,
      connectedAt: row?.connectedAt ?? null,
      refreshedAt: row?.refreshedAt ?? null,
      refreshCount: row?.refreshCount ?? 0,
      lastError: row?.lastError ?? null,
      lastErrorAt: row?.lastErrorAt ?? null,
    };
  }

  /** A usable access token, refreshed first when it expires within the margin; null when none is connected. */
  async accessToken(): Promise<string | null> {
    const held = this.held;
    if (held && performance.now() - held.readAt < HOLD_MS) {
      if (held.token === null) return null;
      if (held.expiresAt - this.clock.now().getTime() > REFRESH_MARGIN_MS) return held.token;
    }
    const generation = this.generation;
    const readAt = performance.now();
    const [row] = await this.db.select().from(kickBotTokens).where(eq(kickBotTokens.id, this.slot));
    const keep = (token: string | null, expiresAt: number) => {
      if (this.generation === generation) this.held = { token, expiresAt, readAt };
    };
    if (!row) {
      keep(null, 0);
      return null;
    }
    const token = this.openToken(row.accessToken);
    if (row.expiresAt.getTime() - this.clock.now().getTime() > REFRESH_MARGIN_MS) {
      keep(token, row.expiresAt.getTime());
      return token;
    }
    return this.refresh(token);
  }

  /**
   * A new access token after `stale` stopped working (or is about to). Several callers in this
   * process share one refresh; across processes the lease lets one refresh and the others take
   * the token it saved.
   */
  refresh(stale: string): Promise<string> {
    // The held token is the stale one (or about to be): the next use reads the row again.
    this.forget();
    this.refreshing ??= this.refreshOnce(stale).finally(() => {
      this.refreshing = null;
      this.forget();
    });
    return this.refreshing;
  }

  private openToken(sealed: string): string {
    const plain = this.sealer().open(sealed);
    if (plain === null) {
      throw new KickBotError(
        'token unreadable',
        'The stored Kick bot token cannot be opened with this KICK_TOKEN_KEY: connect the bot again.',
      );
    }
    return plain;
  }

  private usable(row: KickBotTokenRow, stale: string): string | null {
    const access = this.openToken(row.accessToken);
    const fresh = row.expiresAt.getTime() - this.clock.now().getTime() > REFRESH_MARGIN_MS;
    return access !== stale && fresh ? access : null;
  }

  private async refreshOnce(stale: string): Promise<string> {
    // Wall time: the app clock may stand still (tests) while another process holds the lease.
    const deadline = Date.now() + LEASE_MS;
    for (;;) {
      const now = this.clock.now();
      const [leased] = await this.db
        .update(kickBotTokens)
        .set({ refreshLeaseUntil: new Date(now.getTime() + LEASE_MS) })
        .where(
          and(
            eq(kickBotTokens.id, this.slot),
            or(isNull(kickBotTokens.refreshLeaseUntil), lt(kickBotTokens.refreshLeaseUntil, now)),
          ),
        )
        .returning();
      if (leased) return this.refreshHolding(leased, stale);
      // Another process is refreshing: take its token once it saved one.
      const [row] = await this.db.select().from(kickBotTokens).where(eq(kickBotTokens.id, this.slot));
      if (!row) throw new KickBotError('disconnected', 'The Kick bot is not connected.');
      const theirs = this.usable(row, stale);
      if (theirs) return theirs;
      if (Date.now() > deadline) {
        throw new KickBotError(
          'refresh lease held too long',
          'Another process is still refreshing the Kick bot token.',
          503,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private async refreshHolding(row: KickBotTokenRow, stale: string): Promise<string> {
    const release = { refreshLeaseUntil: null };
    try {
      const already = this.usable(row, stale);
      if (already) {
        await this.db.update(kickBotTokens).set(release).where(eq(kickBotTokens.id, this.slot));
        return already;
      }
      const box = this.sealer();
      const tokens = await this.tokenCall({
        grant_type: 'refresh_token',
        refresh_token: this.openToken(row.refreshToken),
      });
      const now = this.clock.now();
      await this.db
        .update(kickBotTokens)
        .set({
          ...release,
          accessToken: box.seal(tokens.access_token),
          // Always the new one: Kick may rotate it, and the old one may stop working.
          refreshToken: box.seal(tokens.refresh_token),
          expiresAt: new Date(now.getTime() + tokens.expires_in * 1000),
          scope: tokens.scope ?? row.scope,
          refreshedAt: now,
          refreshCount: sql`${kickBotTokens.refreshCount} + 1`,
          lastError: null,
          lastErrorAt: null,
        })
        .where(eq(kickBotTokens.id, this.slot));
      this.onChange();
      return tokens.access_token;
    } catch (err) {
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 300);
      await this.db
        .update(kickBotTokens)
        .set({ ...release, lastError: `refresh failed: ${message}`, lastErrorAt: this.clock.now() })
        .where(eq(kickBotTokens.id, this.slot));
      throw err;
    }
  }

  private async tokenCall(params: Record<string, string>): Promise<z.infer<typeof tokenAnswer>> {
    const res = await this.http(`${this.config.oauthUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        ...params,
        client_id: this.config.clientId,
        client_secret: this.config.clientSecret,
      }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await res.text();
    if (!res.ok) {
      const error = /"error"\s*:\s*"([\w.-]{1,60})"/.exec(text)?.[1] ?? text.slice(0, 80);
      throw new KickBotError(
        `Kick token endpoint answered ${res.status} (${error})`,
        `Kick refused the token request (${res.status} ${error}).`,
        502,
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    const parsed = tokenAnswer.safeParse(json);
    if (!parsed.success)
      throw new KickBotError('unexpected token answer', 'Kick answered the token request unexpectedly.', 502);
    return parsed.data;
  }

  private async whoAmI(accessToken: string) {
    const res = await this.http(`${this.config.apiUrl}/public/v1/users`, {
      headers: { accept: 'application/json', authorization: `Bearer ${accessToken}` },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const parsed = usersAnswer.safeParse(res.ok ? await res.json().catch(() => null) : null);
    if (!parsed.success)
      throw new KickBotError(`users answered ${res.status}`, 'Kick did not say whose account this is.', 502);
    const [user] = parsed.data.data;
    if (!user) throw new KickBotError('no user', 'Kick did not say whose account this is.', 502);
    return user;
  }
}
