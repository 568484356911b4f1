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

/** The Product entity of docs/product.md#site-entities, plus the stock left (null: unlimited) and how it is delivered. */
export const product = z.object({
  id: z.number(),
  name: z.string(),
  price: z.number(),
  image: z.string().nullable(),
  category: z.string(),
  stock: z.number().nullable(),
  delivery: deliveryKind,
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

export const productInput = z.object({
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
});
export type ProductInput = z.input<typeof productInput>;

/** Admin → Products' form as typed (text inputs), checked by the same rules as productInput. */
export const productForm = z.object({
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
});
export type ProductFormValues = z.input<typeof productForm>;

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
