/**
 * The web app's formats, one per kind, each through `Intl` in the language the app speaks
 * (docs/features/languages.md#formats). Points, gems and prizes all go through ONE formatter,
 * `formatAmount`: exactly 2 decimals with the language's separators, so the header, the store, the
 * games and My activity show the same "250.50" (English) or "250,50" (Spanish, Portuguese). The
 * amount reaches `Intl` as exact decimal text (packages/common/src/money.ts), never as a float.
 */
import { centsToText, isAmount, toCents } from '@kickback/common/money';
import type { Locale } from '@kickback/common/i18n/locales';
import { currentLocale } from '../i18n/i18n';

const formats = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
/** One `Intl` formatter per language and options, made once (a list formats many values). */
function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat>(
  make: new (locale: Locale, options: object) => F,
  locale: Locale,
  options: object,
): F {
  const key = `${make.name}|${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key) as F | undefined;
  if (!format) formats.set(key, (format = new make(locale, options)));
  return format;
}
const numberFormat = (locale: Locale, options: Intl.NumberFormatOptions) => cached(Intl.NumberFormat, locale, options);

/** Exact decimal text of an amount ("1500.05"), or null when it is not a number. */
function exactText(value: number | string): string | null {
  if (isAmount(value)) return centsToText(toCents(value));
  const n = Number(value);
  if (!Number.isFinite(n)) return null;
  return centsToText(BigInt(Math.sign(n) * Math.round(Math.abs(n) * 100)));
}

/** `Intl` formats decimal text exactly (no float rounding on the way). */
const asDecimal = (text: string) => text as unknown as number;

/** Points, gems and prize amounts: exactly 2 decimals, grouped. */
export function formatAmount(value: number | string, locale: Locale = currentLocale()): string {
  const text = exactText(value);
  if (text === null) return '—';
  return numberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(asDecimal(text));
}

/** Wagered amounts: whole dollars (a wager is not a balance). */
export function formatWhole(value: number, locale: Locale = currentLocale()): string {
  return numberFormat(locale, { maximumFractionDigits: 0 }).format(value);
}

/** A count (participants, tickets): grouped, no decimals. */
export function formatCount(value: number, locale: Locale = currentLocale()): string {
  return numberFormat(locale, { maximumFractionDigits: 0 }).format(value);
}

/** Money in a currency (a partner's, a prize's): the language's way of writing it, exact to the cent. */
export function formatMoney(value: number | string, currency: string, locale: Locale = currentLocale()): string {
  const text = exactText(value);
  if (text === null) return '—';
  return numberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(asDecimal(text));
}

/** A prize or payout with its unit: dollars as money (`$14.27`), anything else as `1,500.00 points`. */
export function formatPrize(amount: number | null, unit: string | null, locale: Locale = currentLocale()): string {
  if (amount === null) return '—';
  if (unit === 'USD') return formatMoney(amount, 'USD', locale);
  return `${formatAmount(amount, locale)} ${unit ?? ''}`.trim();
}

const dateFormat = (locale: Locale, options: Intl.DateTimeFormatOptions) =>
  cached(Intl.DateTimeFormat, locale, options);

const toDate = (at: Date | string | number) => (at instanceof Date ? at : new Date(at));

/** A day: "Dec 8, 2026" / "8 dic 2026" / "8 de dez. de 2026". */
export function formatDate(at: Date | string | number, locale: Locale = currentLocale()): string {
  return dateFormat(locale, { dateStyle: 'medium' }).format(toDate(at));
}

/** A time of day in the viewer's zone: "09:30 PM" / "21:30". */
export function formatTime(at: Date | string | number, locale: Locale = currentLocale()): string {
  return dateFormat(locale, { hour: '2-digit', minute: '2-digit' }).format(toDate(at));
}

/** A day and a time: "Dec 8, 2026, 9:30 PM". */
export function formatDateTime(at: Date | string | number, locale: Locale = currentLocale()): string {
  return dateFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(toDate(at));
}

/** A short day: "Sat, Dec 8" / "sáb, 8 dic". */
export function formatShortDay(at: Date | string | number, locale: Locale = currentLocale()): string {
  return dateFormat(locale, { weekday: 'short', day: 'numeric', month: 'short' }).format(toDate(at));
}

/** "21:30" today, else "Sat, Dec 8 21:30": when something closes, in the viewer's time. */
export function formatWhen(at: Date | string | number, now = new Date(), locale: Locale = currentLocale()): string {
  const date = toDate(at);
  const time = formatTime(date, locale);
  return date.toDateString() === now.toDateString() ? time : `${formatShortDay(date, locale)} ${time}`;
}

const relativeUnits: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** A moment relative to now: "3 minutes ago", "in 2 hours", "hace 3 minutos", "em 2 horas". */
export function formatRelative(
  at: Date | string | number,
  now: Date | number = Date.now(),
  locale: Locale = currentLocale(),
): string {
  const seconds = Math.round((toDate(at).getTime() - toDate(now).getTime()) / 1000);
  const [unit, size] = relativeUnits.find(([, s]) => Math.abs(seconds) >= s) ?? ['second', 1];
  return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(Math.round(seconds / size), unit);
}

/**
 * A countdown's time left as the language writes a duration: "2 days, 3 hours, 4 minutes" /
 * "2 días, 3 horas y 4 minutos" (zero parts left out; "0 minutes" when nothing is left).
 */
export function formatCountdown(seconds: number, locale: Locale = currentLocale()): string {
  const left = Math.max(0, Math.floor(seconds));
  const parts: Array<[number, 'day' | 'hour' | 'minute']> = [
    [Math.floor(left / 86_400), 'day'],
    [Math.floor((left % 86_400) / 3600), 'hour'],
    [Math.floor((left % 3600) / 60), 'minute'],
  ];
  const shown = parts.filter(([n]) => n > 0);
  const list = (shown.length ? shown : [[0, 'minute'] as const]).map(([n, unit]) =>
    numberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(n),
  );
  return new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }).format(list);
}
