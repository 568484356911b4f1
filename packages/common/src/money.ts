/**
 * Exact money-like amounts (points, gems, prizes): integer hundredths as bigint, 2 decimals as text
 * for SQL `numeric(18,2)`, and numbers with at most 2 decimals for JSON. Never floats in between.
 */
const decimalPattern = /^(-)?(\d{1,16})(?:\.(\d{1,2}))?$/;

export const MAX_CENTS = 10n ** 18n - 1n;

/** Parses "12", "12.3", "-0.05" or a finite number with at most 2 decimals into hundredths. */
export function toCents(value: string | number | bigint): bigint {
  if (typeof value === 'bigint') return value * 100n;
  const text = typeof value === 'number' ? numberToText(value) : value.trim();
  const m = decimalPattern.exec(text);
  if (!m) throw new RangeError(`Not an amount with at most 2 decimals: ${String(value)}`);
  const units = BigInt(m[2] ?? '0');
  const frac = BigInt((m[3] ?? '').padEnd(2, '0') || '0');
  const cents = units * 100n + frac;
  return m[1] ? -cents : cents;
}

/** Hundredths → "1234.50" (always 2 decimals), the form SQL numeric accepts exactly. */
export function centsToText(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const units = abs / 100n;
  const frac = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${units}.${frac}`;
}

/** Hundredths → a JSON number (exact to 2 decimals for any amount below 2^53 hundredths). */
export function centsToNumber(cents: bigint): number {
  return Number(centsToText(cents));
}

/** A numeric(18,2) value as the database driver returns it ("12.50") → JSON number. */
export function decimalToNumber(value: string | number): number {
  return centsToNumber(toCents(typeof value === 'number' ? value : normalise(value)));
}

/** True when the value is a finite amount with at most 2 decimals. */
export function isAmount(value: unknown): boolean {
  if (typeof value !== 'number' && typeof value !== 'string') return false;
  try {
    toCents(value);
    return true;
  } catch {
    return false;
  }
}

function numberToText(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`Not a finite amount: ${n}`);
  // Round-trip through a 2-decimal string only when that is exact: 0.1 + 0.2 is refused.
  const fixed = n.toFixed(2);
  if (Number(fixed) !== n) throw new RangeError(`Not an amount with at most 2 decimals: ${n}`);
  return fixed;
}

function normalise(text: string): string {
  // Drivers may return "12.5" or "12.500000"; keep at most 2 decimals when the rest are zeros.
  const m = /^(-?\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return text;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  return frac ? `${m[1]}.${frac}` : (m[1] ?? text);
}

/**
 * THE display format of every money-like amount (points, gems, prizes) in the web app: exactly 2
 * decimals and thousands separators — "1,500.00", "250.50", "-0.05". Exact for amounts with at
 * most 2 decimals (decimal text or a JSON number); anything finer is rounded half away from zero.
 */
export function formatAmount(value: number | string): string {
  let cents: bigint;
  if (isAmount(value)) cents = toCents(value);
  else {
    const n = Number(value);
    if (!Number.isFinite(n)) return '—';
    cents = BigInt(Math.sign(n) * Math.round(Math.abs(n) * 100));
  }
  const text = centsToText(cents);
  const [whole = '0', frac = '00'] = text.replace('-', '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents < 0n ? '-' : ''}${grouped}.${frac}`;
}
