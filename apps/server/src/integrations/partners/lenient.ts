/**
 * Lenient reading of partner answers: find the player list under whichever key this variant uses,
 * take the first present field of a list of aliases, and turn floats, numeric strings and cent
 * integers into exact hundredths. Shared by every adapter.
 */
import { z } from 'zod';
import type { SiteId } from '@kickback/common/http/leaderboards';
import {
  PartnerHttpError,
  PartnerResponseError,
  type PartnerStanding,
  type PartnerWindow,
  type WagerUnit,
} from './types';

/** Amounts above this (10^13 units) are not wagers; the row is garbage. */
const MAX_CENTS = 10n ** 15n;

const row = z.record(z.string(), z.unknown());
type Row = z.infer<typeof row>;

/** The rows of an answer: the answer itself when it is an array, else the first array under `keys`. */
export function listFrom(json: unknown, keys: readonly string[]): unknown[] {
  if (Array.isArray(json)) return json;
  if (json && typeof json === 'object') {
    const obj = json as Record<string, unknown>;
    for (const key of keys) {
      const value = obj[key];
      if (Array.isArray(value)) return value;
      // One level deeper: { data: { users: [...] } }.
      if (value && typeof value === 'object') {
        for (const inner of keys) {
          const nested = (value as Record<string, unknown>)[inner];
          if (Array.isArray(nested)) return nested;
        }
      }
    }
  }
  throw new PartnerResponseError(`expected a list of players, got ${describe(json)}`);
}

function describe(json: unknown): string {
  if (json === null) return 'null';
  if (Array.isArray(json)) return 'an array';
  if (typeof json === 'object') {
    const keys = Object.keys(json as object).slice(0, 5);
    return keys.length ? `an object with ${keys.join(', ')}` : 'an empty object';
  }
  return typeof json;
}

/** The first alias holding a non-empty string or a finite number, as trimmed text. */
export function pickText(r: Row, aliases: readonly string[]): string | null {
  for (const key of aliases) {
    const value = r[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return null;
}

/**
 * The first alias holding an amount, in hundredths. `scale: 'units'` reads 12.345 as 1235
 * hundredths (half up); `'cents'` reads 1234 as 1234. Negative or absurd values are refused (null).
 * `undefined` means no alias was present at all.
 */
export function pickAmount(r: Row, aliases: readonly string[], scale: 'units' | 'cents'): bigint | null | undefined {
  for (const key of aliases) {
    if (!(key in r) || r[key] === null || r[key] === undefined) continue;
    return amountToCents(r[key], scale);
  }
  return undefined;
}

const decimalText = /^(\d{1,20})(?:\.(\d+))?$/;

export function amountToCents(value: unknown, scale: 'units' | 'cents'): bigint | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    // Floats from JSON: print enough digits to round at the cent correctly, never exponent form.
    text = value.toFixed(scale === 'units' ? 6 : 4);
  } else if (typeof value === 'string') {
    text = value.trim().replace(/,/g, '');
  } else {
    return null;
  }
  const m = decimalText.exec(text);
  if (!m) return null;
  const whole = BigInt(m[1] ?? '0');
  const frac = m[2] ?? '';
  let cents: bigint;
  if (scale === 'units') {
    const firstTwo = BigInt((frac.slice(0, 2) || '0').padEnd(2, '0'));
    const roundUp = (frac[2] ?? '0') >= '5' ? 1n : 0n;
    cents = whole * 100n + firstTwo + roundUp;
  } else {
    cents = whole + ((frac[0] ?? '0') >= '5' ? 1n : 0n);
  }
  return cents > MAX_CENTS ? null : cents;
}

/** A relative avatar path ("/img/a.png") made absolute against the partner's origin; junk dropped. */
export function absoluteUrl(value: string | null, origin: string): string | null {
  if (!value) return null;
  try {
    const url = new URL(value, origin);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

export interface RowMapping {
  site: SiteId;
  unit: WagerUnit;
  scale: 'units' | 'cents';
  name: readonly string[];
  id: readonly string[];
  avatar: readonly string[];
  wagered: readonly string[];
  weighted?: readonly string[];
  /** Boolean flag that, when false, means the player left the code. */
  onCode?: readonly string[];
  avatarOrigin: string;
}

/**
 * Rows → standings. Rows without a name or a readable wager are skipped; when every row of a
 * non-empty list is unreadable the whole answer is refused (the format changed: keep the last
 * good standings rather than wiping the board).
 */
export function standingsFrom(rows: unknown[], map: RowMapping, window: PartnerWindow): PartnerStanding[] {
  const out: PartnerStanding[] = [];
  for (const raw of rows) {
    const parsed = row.safeParse(raw);
    if (!parsed.success) continue;
    const r = parsed.data;
    const username = pickText(r, map.name);
    const wagered = pickAmount(r, map.wagered, map.scale);
    if (!username || wagered === null || wagered === undefined) continue;
    // Present but unreadable (null) skips the row; absent (undefined) is allowed.
    const weighted = map.weighted ? pickAmount(r, map.weighted, map.scale) : undefined;
    if (weighted === null) continue;
    let onCode = true;
    for (const key of map.onCode ?? []) {
      if (typeof r[key] === 'boolean') {
        onCode = r[key];
        break;
      }
    }
    out.push({
      site: map.site,
      username: username.slice(0, 64),
      externalId: pickText(r, map.id)?.slice(0, 64) ?? null,
      avatarUrl: absoluteUrl(pickText(r, map.avatar), map.avatarOrigin),
      wagered,
      weightedWagered: weighted ?? null,
      unit: map.unit,
      onCode,
      periodStart: window.start,
      periodEnd: window.end,
    });
  }
  if (rows.length > 0 && out.length === 0) {
    throw new PartnerResponseError(`none of the ${rows.length} rows could be read`);
  }
  return out;
}

/** How much of an unexpected body an error quotes: enough to tell a challenge page from an API error. */
const QUOTE_CHARS = 160;

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS)}…` : flat;
}

/**
 * A bot-protection page (Cloudflare's "Just a moment…" challenge and its kin) rather than the API:
 * Cases.gg sits behind one and Clash.gg wants its `let-me-in` cookie; a plain client gets HTML.
 */
function looksLikeBotProtection(res: Response, body: string): boolean {
  if (res.headers.get('cf-mitigated') === 'challenge') return true;
  return /<html|just a moment|cf-chl|challenge-platform|attention required|enable javascript and cookies/i.test(body);
}

/**
 * GET with a timeout. A non-2xx answer becomes PartnerHttpError and a non-JSON body
 * PartnerResponseError, each saying the status and quoting the first bytes of the body, and naming
 * a bot-protection page as such with what to configure, so the admin page says why a board is stale.
 */
export async function getJson(
  http: typeof fetch,
  url: URL,
  headers: Record<string, string>,
  signal?: AbortSignal,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(15_000);
  const res = await http(url, {
    headers: { accept: 'application/json', ...headers },
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  const text = await res.text().catch(() => '');
  const blocked = looksLikeBotProtection(res, text)
    ? " — a bot-protection page, not the API: set this partner's cookie or headers in PARTNER_HEADERS"
    : '';
  if (!res.ok) throw new PartnerHttpError(res.status, `HTTP ${res.status}${blocked}: ${quote(text) || '(empty body)'}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new PartnerResponseError(`HTTP ${res.status}, not JSON${blocked}: ${quote(text) || '(empty body)'}`);
  }
}

/** The base URL joined with a path, keeping any path prefix of the base (simulators live under /dev/…). */
export function joinUrl(base: string, path: string): URL {
  return new URL(`${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`);
}
