/**
 * Partner affiliate stats (leaderboards): the one shape every adapter normalises to, and the
 * interface the poller drives. None of these APIs is documented publicly (docs/integrations.md#partner-sites), so
 * the parsers are lenient: they accept the shapes and field names seen in the wild, skip rows they
 * cannot read, and refuse a whole answer only when it is not a list of players at all.
 */
import type { SiteId } from '@kickback/common/http/leaderboards';

export type WagerUnit = 'USD' | 'gems';

/** One player's figures for a period, as a partner reports them. Amounts are hundredths of `unit`. */
export interface PartnerStanding {
  site: SiteId;
  username: string;
  externalId: string | null;
  avatarUrl: string | null;
  wagered: bigint;
  /** Roobet's RTP-weighted wager; null elsewhere. */
  weightedWagered: bigint | null;
  unit: WagerUnit;
  /** False when the partner says the player left the code (RustMagic's `board: false`). */
  onCode: boolean;
  periodStart: Date;
  periodEnd: Date;
}

export interface PartnerWindow {
  start: Date;
  end: Date;
  /** The app clock's now; adapters never read the system clock. */
  now: Date;
}

export interface PartnerAdapter {
  site: SiteId;
  /**
   * 'bounded': the API takes an end, so the figures of a finished period can still be fetched
   * after it ended. 'since': it takes only a start date (Clash and Cases), so a period's final
   * figures are the last ones fetched before its end.
   */
  window: 'bounded' | 'since';
  /** The partner's own rate limit (CSGOBig allows about one call per 15 minutes). */
  minIntervalSeconds: number;
  fetchStandings(window: PartnerWindow, signal?: AbortSignal): Promise<PartnerStanding[]>;
}

/** The partner answered something we cannot read as standings. */
export class PartnerResponseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PartnerResponseError';
  }
}

/** The partner answered with an HTTP error (auth, rate limit, outage). */
export class PartnerHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'PartnerHttpError';
  }
}
