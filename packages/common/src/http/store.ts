/**
 * The store (docs/product.md#site-calls): `GET /api/Product/GetProducts`, `POST /api/Order/OrderProduct`, and the
 * admin product catalogue under `/api/admin/products`.
 */
import { z } from 'zod';
import { idParam, strictInt } from './strict-int';
import { isAmount, toCents } from '../money';
import { defineEndpoint } from './endpoint';
import { messageBody } from './errors';

/** Sort values of the Store page (docs/product.md#site-screens-and-routes): 1 Price High to Low (default), 2 Low to High. */
export const PRODUCT_SORT_HIGH_TO_LOW = 1;
export const PRODUCT_SORT_LOW_TO_HIGH = 2;

/**
 * How a product reaches the buyer, chosen by the admin in Admin → Products: hand-delivered with no
 * details asked (`none`), hand-delivered to the buyer's Steam trade URL (skins) or email (gift cards),
 * or an instant `code` drawn from the product's uploaded pool in the purchase itself.
 */
export const deliveryKinds = ['none', 'steam_trade_url', 'email', 'code'] as const;
export const deliveryKind = z.enum(deliveryKinds, { error: 'must be one of none, steam_trade_url, email, code' });
export type DeliveryKind = z.infer<typeof deliveryKind>;
export const deliveryKindLabels: Record<DeliveryKind, string> = {
  none: 'Hand-delivered, no details asked',
  steam_trade_url: 'Steam trade URL (skins)',
  email: 'Email address (gift cards)',
  code: 'Instant code from a pool',
};

/** The kinds that ask the buyer for a detail in the purchase dialog. */
export type DetailKind = 'steam_trade_url' | 'email';
export const needsDetail = (kind: DeliveryKind): kind is DetailKind => kind === 'steam_trade_url' || kind === 'email';

const TRADE_URL = /^https:\/\/steamcommunity\.com\/tradeoffer\/new\/\?partner=(\d{1,10})&token=([A-Za-z0-9_-]{6,16})$/;

/** A Steam trade-offer URL: https://steamcommunity.com/tradeoffer/new/?partner=N&token=T (N a 32-bit account id). */
export function isSteamTradeUrl(value: string): boolean {
  const m = TRADE_URL.exec(value);
  if (!m) return false;
  const partner = Number(m[1]);
  return partner > 0 && partner <= 0xffffffff;
}

export const deliveryDetailMessages: Record<DetailKind, string> = {
  steam_trade_url: 'Enter your Steam trade URL: https://steamcommunity.com/tradeoffer/new/?partner=…&token=…',
  email: 'Enter the email address to send it to, like name@example.com',
};

/** The one rule for each detail, used by the purchase dialog and by the server. */
export const deliveryDetailSchemas: Record<DetailKind, z.ZodType<string, string>> = {
  steam_trade_url: z
    .string({ error: deliveryDetailMessages.steam_trade_url })
    .trim()
    .max(300, 'A Steam trade URL is at most 300 characters')
    .refine(isSteamTradeUrl, deliveryDetailMessages.steam_trade_url),
  email: z
    .string({ error: deliveryDetailMessages.email })
    .trim()
    .max(254, 'An email address is at most 254 characters')
    .pipe(z.email(deliveryDetailMessages.email)),
};

/** Which detail a text is, by the same rules (null: neither). */
export function detailKindOf(value: string): DetailKind | null {
  for (const kind of ['steam_trade_url', 'email'] as const) {
    if (deliveryDetailSchemas[kind].safeParse(value).success) return kind;
  }
  return null;
}

/** The purchase dialog's form for a product of this delivery kind. */
export function purchaseForm(kind: DeliveryKind) {
  return z.object({ deliveryDetail: needsDetail(kind) ? deliveryDetailSchemas[kind] : z.string().optional() });
}
export type PurchaseFormValues = { deliveryDetail: string | undefined };

/**
 * Store limits (docs/features/store-limits.md): how many one buyer may buy per window — a UTC day,
 * a UTC week from Monday 00:00, a partner's leaderboard cycle, or ever.
 */
export const limitWindows = ['day', 'week', 'cycle', 'ever'] as const;
export const limitWindow = z.enum(limitWindows, { error: 'must be one of day, week, cycle, ever' });
export type LimitWindow = z.infer<typeof limitWindow>;
export const limitWindowLabels: Record<LimitWindow, string> = {
  day: 'per day',
  week: 'per week',
  cycle: 'per leaderboard cycle',
  ever: 'per person, ever',
};

/**
 * Who may buy a product: null is everyone. A discriminated union so that further kinds are added
 * as new members without changing the column: Kick subscribers; viewers whose highest milestone
 * tier on a partner site in its running cycle is at least `tier` (docs/features/store-limits.md#tier-only);
 * and the streak restore (docs/features/stream-streaks.md#restoring-a-broken-streak), bought only
 * by a viewer with a broken streak to restore, which the purchase restores.
 */
export const productRestriction = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('subscribers') }),
    z.object({
      kind: z.literal('tier'),
      site: z
        .number({ error: 'Choose the partner site.' })
        .refine((v) => Number.isInteger(v) && v > 0 && v < 1000, 'Choose the partner site.'),
      tier: z
        .string({ error: 'Enter the tier name.' })
        .trim()
        .min(1, 'Enter the tier name.')
        .max(40, 'Keep the tier name to 40 characters or fewer.'),
    }),
    z.object({ kind: z.literal('streak_restore') }),
  ],
  { error: 'must be { kind: "subscribers" | "tier" | "streak_restore" } or null' },
);
export type ProductRestriction = z.infer<typeof productRestriction>;
export const audiences = ['everyone', 'subscribers', 'tier', 'streak_restore'] as const;
export type Audience = (typeof audiences)[number];
export const audienceLabels: Record<Audience, string> = {
  everyone: 'Everyone',
  subscribers: 'Kick subscribers only',
  tier: 'Viewers who reached a milestone tier',
  streak_restore: 'Restores a broken stream streak (viewers with one)',
};

/** A product's limits as the store shows them (null fields: none). */
export const productLimits = z.object({
  limitCount: z.number().nullable(),
  limitWindow: limitWindow.nullable(),
  limitSite: z.number().nullable(),
  cooldownMinutes: z.number().nullable(),
  restriction: productRestriction.nullable(),
});
export type ProductLimits = z.infer<typeof productLimits>;

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** "Monday 00:00 UTC" within a week of `now`, else "14 Jan 2027 00:00 UTC". */
export function nextDateText(next: Date, now: Date): string {
  const time = `${two(next.getUTCHours())}:${two(next.getUTCMinutes())} UTC`;
  if (next.getTime() - now.getTime() < 7 * 86_400_000) return `${WEEKDAYS[next.getUTCDay()]} ${time}`;
  return `${next.getUTCDate()} ${MONTHS[next.getUTCMonth()]} ${next.getUTCFullYear()} ${time}`;
}

/** "3 h 20 min", "2 d 4 h", "5 min" (rounded up to the minute). */
export function durationText(ms: number): string {
  // Whole seconds first: the order's time is the database's, a few ms after the request's clock,
  // and a 60-minute cooldown just begun must read "1 h", not "1 h 1 min".
  const minutes = Math.max(1, Math.ceil(Math.floor(ms / 1000) / 60));
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  if (d > 0) return h > 0 ? `${d} d ${h} h` : `${d} d`;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  return `${m} min`;
}

/** "1 per week", "3 per day", "1 per person". */
export function limitText(count: number, window: LimitWindow): string {
  return window === 'ever' ? `${count} per person` : `${count} ${limitWindowLabels[window]}`;
}

/** The Product entity of docs/product.md#site-entities, plus the stock left (null: unlimited) and how it is delivered. */
export const product = z.object({
  id: z.number(),
  name: z.string(),
  price: z.number(),
  image: z.string().nullable(),
  category: z.string(),
  stock: z.number().nullable(),
  delivery: deliveryKind,
  /** Store limits (docs/features/store-limits.md); absent in answers cached before they existed. */
  limits: productLimits.optional(),
});
export type Product = z.infer<typeof product>;

export const productsResponse = z.object({
  data: z.array(product),
  categories: z.array(z.string()),
});
export type ProductsResponse = z.infer<typeof productsResponse>;

export const orderProductBody = z.object({
  productId: strictInt('must be a product id', z.number().positive('must be a product id')),
  /** The Steam trade URL or email the product asks for (its delivery kind says which); checked against it. */
  deliveryDetail: z
    .string({ error: 'must be text' })
    .trim()
    .max(300, 'must be at most 300 characters')
    .optional()
    .transform((v) => v || undefined),
});
export type OrderProductBody = z.input<typeof orderProductBody>;

export const MAX_PRICE = 100_000_000;

/** A price typed in a form or sent as JSON: a number (or numeric text) > 0 with at most 2 decimals. */
export const priceInput = z
  .union([z.number(), z.string().trim()], { error: 'must be a number' })
  .refine((v) => v !== '' && isAmount(v), 'must be a number with at most 2 decimals')
  .refine((v) => !isAmount(v) || toCents(v) > 0n, 'must be greater than 0')
  .refine((v) => !isAmount(v) || toCents(v) <= BigInt(MAX_PRICE) * 100n, `must be at most ${MAX_PRICE}`)
  .transform((v) => Number(v));

const imageUrl = z
  .string()
  .trim()
  .max(500, 'must be at most 500 characters')
  .refine((v) => v === '' || v.startsWith('/') || /^https?:\/\//.test(v), 'must be a web address or a /path')
  .nullish()
  .transform((v) => v || null);

function optionalWhole(what: string, min: number, max: number) {
  return z
    .union([z.number(), z.null()], { error: `must be a whole number or empty` })
    .optional()
    .refine(
      (v) => v === undefined || v === null || (Number.isInteger(v) && v >= min && v <= max),
      `The ${what} must be a whole number from ${min} to ${max}.`,
    )
    .transform((v) => v ?? null);
}

/** A limit needs both its count and its window; a cycle names the partner whose cycle it is. */
function limitRules(
  v: { limitCount: number | null; limitWindow: LimitWindow | null; limitSite: number | null },
  ctx: z.RefinementCtx,
): void {
  if (v.limitCount !== null && v.limitWindow === null)
    ctx.addIssue({ code: 'custom', path: ['limitWindow'], message: 'Choose the window the limit counts in.' });
  if (v.limitCount === null && v.limitWindow !== null)
    ctx.addIssue({ code: 'custom', path: ['limitCount'], message: 'Enter how many one viewer may buy.' });
  if (v.limitWindow === 'cycle' && v.limitSite === null)
    ctx.addIssue({ code: 'custom', path: ['limitSite'], message: 'Choose the leaderboard whose cycle counts.' });
}

export const productInput = z
  .object({
    name: z
      .string({ error: 'Enter the product name.' })
      .trim()
      .min(1, 'Enter the product name.')
      .max(100, 'Keep the product name to 100 characters or fewer.'),
    price: priceInput,
    imageUrl,
    category: z
      .string({ error: 'Enter the category.' })
      .trim()
      .min(1, 'Enter the category.')
      .max(40, 'Keep the category to 40 characters or fewer.'),
    stock: z
      .union([z.number(), z.null()], { error: 'must be a whole number or empty' })
      .optional()
      .refine(
        (v) => v === undefined || v === null || (Number.isInteger(v) && v >= 0 && v <= 1_000_000),
        'must be a whole number from 0 to 1000000',
      )
      .transform((v) => v ?? null),
    active: z.boolean().default(true),
    delivery: deliveryKind.default('none'),
    limitCount: optionalWhole('limit', 1, 1000),
    limitWindow: limitWindow.nullish().transform((v) => v ?? null),
    limitSite: z
      .union([z.number(), z.null()], { error: 'must be a partner site number or empty' })
      .optional()
      .refine(
        (v) => v === undefined || v === null || (Number.isInteger(v) && v > 0 && v < 1000),
        'must be a site number',
      )
      .transform((v) => v ?? null),
    cooldownMinutes: optionalWhole('cooldown', 1, 525_600),
    restriction: productRestriction.nullish().transform((v) => v ?? null),
  })
  .superRefine(limitRules);
export type ProductInput = z.input<typeof productInput>;

/** Admin → Products' form as typed (text inputs), checked by the same rules as productInput. */
export const productForm = z
  .object({
    name: productInput.shape.name,
    price: priceInput,
    imageUrl,
    category: productInput.shape.category,
    stock: z
      .string()
      .trim()
      .refine(
        (v) => v === '' || (/^\d{1,7}$/.test(v) && Number(v) <= 1_000_000),
        'must be a whole number from 0 to 1000000',
      )
      .transform((v) => (v === '' ? null : Number(v))),
    delivery: deliveryKind,
    limitCount: formWhole('limit', 1, 1000),
    limitWindow: z.enum(['', ...limitWindows]).transform((v) => (v === '' ? null : v)),
    limitSite: z
      .string()
      .trim()
      .refine((v) => v === '' || /^\d{1,3}$/.test(v), 'Choose a leaderboard.')
      .transform((v) => (v === '' ? null : Number(v))),
    cooldownMinutes: formWhole('cooldown', 1, 525_600),
    audience: z.enum(audiences),
    tierSite: z
      .string()
      .trim()
      .refine((v) => v === '' || /^\d{1,3}$/.test(v), 'Choose the partner site.'),
    tierName: z.string().trim().max(40, 'Keep the tier name to 40 characters or fewer.'),
  })
  .superRefine((v, ctx) => {
    limitRules(v, ctx);
    if (v.audience !== 'tier') return;
    if (v.tierSite === '') ctx.addIssue({ code: 'custom', path: ['tierSite'], message: 'Choose the partner site.' });
    if (v.tierName === '') ctx.addIssue({ code: 'custom', path: ['tierName'], message: 'Enter the tier name.' });
  })
  .transform(({ audience, tierSite, tierName, ...rest }) => ({
    ...rest,
    restriction: restrictionOf(audience, tierSite, tierName),
  }));
export type ProductFormValues = z.input<typeof productForm>;

/** The form's audience fields as the stored restriction. */
function restrictionOf(audience: Audience, tierSite: string, tierName: string): ProductRestriction | null {
  if (audience === 'everyone') return null;
  if (audience === 'tier') return { kind: 'tier', site: Number(tierSite), tier: tierName };
  return audience === 'subscribers' ? { kind: 'subscribers' } : { kind: 'streak_restore' };
}

function formWhole(what: string, min: number, max: number) {
  return z
    .string()
    .trim()
    .refine(
      (v) => v === '' || (/^\d{1,7}$/.test(v) && Number(v) >= min && Number(v) <= max),
      `The ${what} must be a whole number from ${min} to ${max}.`,
    )
    .transform((v) => (v === '' ? null : Number(v)));
}

export const adminProduct = product.extend({
  active: z.boolean(),
  /** Code products: codes left and sold (never the codes). */
  codes: z.object({ available: z.number(), sold: z.number() }).nullable(),
  sold: z.number(),
  createdAt: z.string(),
});
export type AdminProduct = z.infer<typeof adminProduct>;
export const adminProductList = z.array(adminProduct);

export const productIdParams = z.object({ id: idParam });

export const storeMessages = {
  orderPlaced: (name: string) => `You bought ${name}. We'll deliver it soon — track it in My activity.`,
  insufficientPoints: 'You do not have enough points for this product.',
  soldOut: 'This product is sold out.',
  inactive: 'This product is no longer available.',
  productNotFound: 'Product not found.',
  codeDelivered: (name: string) => `You bought ${name}. Your code is ready — it is also in My activity.`,
  codesUnavailable: 'Code products are unavailable: set CODE_ENCRYPTION_KEY on the server.',
  codesOnlyForCodeProducts: 'Codes can be uploaded only to a product whose delivery is "Instant code from a pool".',
  codeStockIsPool: 'The stock of a code product is its pool of codes: upload codes instead.',
  nameTaken: (name: string) => `A product named "${name}" already exists: choose another name.`,
  /** "Limit: 1 per week — next on Monday 00:00 UTC" (409); no date for a limit per person. */
  limitReached: (count: number, window: LimitWindow, next: string | null) =>
    `Limit: ${limitText(count, window)}${next ? ` — next on ${next}` : ' — you have bought it already'}.`,
  subscribersOnly:
    'Subscribers only: this product is for Kick subscribers of the channel. Link your Kick account if you subscribe.',
  /** "Only for viewers who reached Gold on Clash.gg this cycle." (403) */
  tierOnly: (tier: string, site: string) => `Only for viewers who reached ${tier} on ${site} this cycle.`,
  noBrokenStreak: 'You have no broken streak to restore.',
  streakRestored: (name: string, streak: number) =>
    `You bought ${name}. Your stream streak is back at ${streak} — keep chatting during the next stream.`,
  cooldown: (remaining: string) => `You can buy this again in ${remaining}.`,
  restockRequested: (name: string) => `We'll let you know when ${name} is back in stock.`,
  restockInStock: 'This product is in stock: you can buy it now.',
  restockNotice: (name: string) => `${name} is back in stock in the store.`,
} as const;

/** The order's answer: the contract's message, plus the order id and, for a code product, the code (buyer only). */
export const orderResponse = messageBody.extend({
  orderId: z.number(),
  code: z.string().nullable(),
});
export type OrderResponse = z.infer<typeof orderResponse>;

export const MAX_CODE_LENGTH = 200;
export const MAX_CODES_PER_UPLOAD = 5000;

/**
 * The one form codes are compared in for uniqueness (the same gift card in another spelling is the
 * same card): NFKC (full-width letters and digits become plain ones), case-folded, with spaces,
 * dashes and invisible characters (zero-width, bidi controls, soft hyphen) removed.
 */
export function codeKeyOf(code: string): string {
  return code
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[\s\p{Pd}\u2212\p{Cf}\p{Cc}]/gu, '');
}

/**
 * Codes pasted one per line or read from a CSV file (the first column; a header line whose first
 * cell is "code" is skipped; quotes removed). Blank lines are ignored.
 */
export function parseCodes(text: string): string[] {
  const out: string[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    let cell = line.split(',')[0]?.trim() ?? '';
    if (cell.length >= 2 && cell.startsWith('"') && cell.endsWith('"')) cell = cell.slice(1, -1).trim();
    if (cell === '') return;
    if (i === 0 && /^codes?$/i.test(cell)) return;
    out.push(cell);
  });
  return out;
}

/** The codes upload: text as pasted or as read from the CSV file. */
export const codeUploadBody = z.object({
  text: z
    .string({ error: 'Paste the codes, one per line, or choose a CSV file' })
    .max(1_000_000, 'At most 1,000,000 characters per upload')
    .superRefine((text, ctx) => {
      const codes = parseCodes(text);
      if (codes.length === 0) ctx.addIssue({ code: 'custom', message: 'Paste at least one code, one per line' });
      if (codes.length > MAX_CODES_PER_UPLOAD)
        ctx.addIssue({ code: 'custom', message: `At most ${MAX_CODES_PER_UPLOAD} codes per upload` });
      const long = codes.filter((c) => c.length > MAX_CODE_LENGTH);
      if (long.length) ctx.addIssue({ code: 'custom', message: `A code is at most ${MAX_CODE_LENGTH} characters` });
      const seen = new Set<string>();
      const repeated = new Set<string>();
      for (const c of codes) {
        if (seen.has(codeKeyOf(c))) repeated.add(c);
        else seen.add(codeKeyOf(c));
      }
      if (repeated.size)
        ctx.addIssue({
          code: 'custom',
          message: `Repeated in this upload: ${[...repeated].slice(0, 20).join(', ')}${repeated.size > 20 ? ` and ${repeated.size - 20} more` : ''}`,
        });
    }),
});
export type CodeUploadBody = z.input<typeof codeUploadBody>;

/** A pool's state for admins: counts and masked tails, never a code. */
export const codePool = z.object({
  available: z.number(),
  sold: z.number(),
  /** Unsold codes withdrawn from sale: another code of the pools is the same card (never sold). */
  withdrawn: z.number(),
  codes: z.array(
    z.object({ id: z.number(), masked: z.string(), sold: z.boolean(), withdrawn: z.boolean(), uploadedAt: z.string() }),
  ),
});
export type CodePool = z.infer<typeof codePool>;
/** `refused`: how many codes were not added (already in a pool); the message names them and why. */
export const codeUploadResponse = messageBody.extend({ added: z.number(), refused: z.number(), pool: codePool });

export const productActiveBody = z.object({ active: z.boolean({ error: 'must be true or false' }) });

export const storeEndpoints = {
  products: defineEndpoint({
    method: 'GET',
    path: '/api/Product/GetProducts',
    access: 'visitor',
    response: productsResponse,
  }),
  order: defineEndpoint({
    method: 'POST',
    path: '/api/Order/OrderProduct',
    access: 'user',
    body: orderProductBody,
    response: orderResponse,
  }),
  /** "Notify me when back in stock" on a sold-out product (docs/features/store-limits.md#back-in-stock). */
  restockAlert: defineEndpoint({
    method: 'POST',
    path: '/api/store/products/:id/restock-alert',
    access: 'user',
    params: productIdParams,
    response: messageBody,
  }),
};

/** Admin: the product catalogue. */
export const adminProductEndpoints = {
  list: defineEndpoint({ method: 'GET', path: '/api/admin/products', access: 'admin', response: adminProductList }),
  create: defineEndpoint({
    method: 'POST',
    path: '/api/admin/products',
    access: 'admin',
    body: productInput,
    response: adminProduct,
  }),
  update: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/products/:id',
    access: 'admin',
    params: productIdParams,
    body: productInput,
    response: adminProduct,
  }),
  setActive: defineEndpoint({
    method: 'POST',
    path: '/api/admin/products/:id/active',
    access: 'admin',
    params: productIdParams,
    body: productActiveBody,
    response: adminProduct,
  }),
  codes: defineEndpoint({
    method: 'GET',
    path: '/api/admin/products/:id/codes',
    access: 'admin',
    params: productIdParams,
    response: codePool,
  }),
  uploadCodes: defineEndpoint({
    method: 'POST',
    path: '/api/admin/products/:id/codes',
    access: 'admin',
    params: productIdParams,
    body: codeUploadBody,
    response: codeUploadResponse,
  }),
};
