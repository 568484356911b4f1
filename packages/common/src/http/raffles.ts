/**
 * Ticket raffles (docs/features/raffles.md): the public list and page, buying tickets, the draw's
 * public record for the verify page, the owner's tickets in My activity, and Admin → Raffles.
 */
import { z } from 'zod';
import { strictInt } from './strict-int';
import { isAmount, toCents } from '../money';
import { drawEntry } from './giveaway';
import { defineEndpoint, pageOf } from './endpoint';
import { pageQuery } from './activity';

export const raffleStatuses = ['draft', 'open', 'closed', 'drawn', 'cancelled'] as const;
export type RaffleStatus = (typeof raffleStatuses)[number];

/** Where a ticket came from: bought with points, or granted for a sub, a gifted sub or KICKs. */
export const ticketSources = ['points', 'sub', 'gift', 'kicks'] as const;
export type TicketSource = (typeof ticketSources)[number];
export const ticketSourceText: Record<TicketSource, string> = {
  points: 'Bought with points',
  sub: 'Subscribing',
  gift: 'Gifting subs',
  kicks: 'Sending KICKs',
};

export const MAX_RAFFLE_PRICE = 100_000_000;
export const MAX_TICKETS_PER_USER = 100_000;
export const MAX_PRIZES = 10;

const points = (what: string, allowZero = false) =>
  z
    .union([z.number(), z.string().trim()], { error: `${what} must be a number` })
    .refine((v) => v !== '' && isAmount(v), `${what} must be a number with at most 2 decimals`)
    .refine((v) => !isAmount(v) || (allowZero ? toCents(v) >= 0n : toCents(v) > 0n), `${what} must be greater than 0`)
    .refine(
      (v) => !isAmount(v) || toCents(v) <= BigInt(MAX_RAFFLE_PRICE) * 100n,
      `${what} must be at most ${MAX_RAFFLE_PRICE}`,
    )
    .transform((v) => Number(v));

const whole = (what: string, min: number, max: number) =>
  strictInt(
    `${what} must be a whole number`,
    z.number().min(min, `${what} must be at least ${min}`).max(max, `${what} must be at most ${max}`),
  );

const instant = (what: string) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} is required`)
    .refine((v) => !Number.isNaN(Date.parse(v)), `${what} must be a date and time`)
    .transform((v) => new Date(v).toISOString());

export const rafflePrizeInput = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('points'), points: points('Prize points') }),
    z.object({
      kind: z.literal('item'),
      item: z
        .string({ error: 'Prize item is required' })
        .trim()
        .min(1, 'Prize item is required')
        .max(200, 'Prize item must be at most 200 characters'),
    }),
  ],
  { error: 'Prize kind must be points or item' },
);
export type RafflePrizeInput = z.input<typeof rafflePrizeInput>;

export const raffleInput = z
  .object({
    title: z
      .string({ error: 'Title is required' })
      .trim()
      .min(1, 'Title is required')
      .max(100, 'Title must be at most 100 characters'),
    description: z.string().trim().max(2000, 'Description must be at most 2000 characters').default(''),
    imageUrl: z
      .string()
      .trim()
      .max(500, 'Image URL must be at most 500 characters')
      .refine((v) => v === '' || v.startsWith('/') || /^https?:\/\//.test(v), 'Image URL must be a web address')
      .nullish()
      .transform((v) => v || null),
    prizes: z
      .array(rafflePrizeInput, { error: 'Prizes must be a list' })
      .min(1, 'Add at least one prize')
      .max(MAX_PRIZES, `At most ${MAX_PRIZES} prizes`),
    ticketPrice: points('Ticket price'),
    maxTicketsPerUser: whole('Maximum tickets per user', 1, MAX_TICKETS_PER_USER),
    requireKick: z.boolean().default(false),
    requireVerifiedPartner: z.boolean().default(false),
    subsOnly: z.boolean().default(false),
    /** Ticket sources: bought on the site, and granted per sub, per gifted sub, per KICKs (0 = off). */
    sellTickets: z.boolean().default(true),
    ticketsPerSub: whole('Tickets per sub', 0, 1000).default(0),
    subCap: whole('Sub ticket cap', 0, MAX_TICKETS_PER_USER).default(0),
    ticketsPerGift: whole('Tickets per gifted sub', 0, 1000).default(0),
    giftCap: whole('Gifted sub ticket cap', 0, MAX_TICKETS_PER_USER).default(0),
    kicksPerTicket: whole('KICKs per ticket', 0, 1_000_000).default(0),
    kicksCap: whole('KICKs ticket cap', 0, MAX_TICKETS_PER_USER).default(0),
    opensAt: instant('Opening time'),
    closesAt: instant('Closing time'),
  })
  .refine((r) => Date.parse(r.closesAt) > Date.parse(r.opensAt), {
    message: 'Closing time must be after the opening time',
    path: ['closesAt'],
  });
export type RaffleInput = z.input<typeof raffleInput>;
export type RaffleValues = z.output<typeof raffleInput>;

export const rafflePrize = z.object({
  position: z.number(),
  kind: z.enum(['points', 'item']),
  points: z.number().nullable(),
  item: z.string().nullable(),
});
export type RafflePrize = z.infer<typeof rafflePrize>;

export const raffleWinner = z.object({
  position: z.number(),
  username: z.string(),
  avatarUrl: z.string().nullable(),
  prize: z.string(),
});
export type RaffleWinner = z.infer<typeof raffleWinner>;

export const raffleSummary = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  imageUrl: z.string().nullable(),
  status: z.enum(raffleStatuses),
  ticketPrice: z.number(),
  maxTicketsPerUser: z.number(),
  sellTickets: z.boolean(),
  opensAt: z.string(),
  closesAt: z.string(),
  ticketsSold: z.number(),
  prizes: z.array(rafflePrize),
  /** The caller's tickets (null when signed out) and their chance of winning the first prize. */
  myTickets: z.number().nullable(),
  /**
   * The caller's tickets split as the server counts them (null when signed out): the maximum per
   * user caps the bought ones only, free support tickets come on top (docs/features/raffles.md#tickets).
   */
  mine: z
    .object({
      bought: z.number(),
      free: z.number(),
      /** How many more the caller may buy: the maximum less those bought. */
      moreAllowed: z.number(),
    })
    .nullable(),
  odds: z.number().nullable(),
  winners: z.array(raffleWinner),
});
export type RaffleSummary = z.infer<typeof raffleSummary>;

export const raffleDetail = raffleSummary.extend({
  requireKick: z.boolean(),
  requireVerifiedPartner: z.boolean(),
  subsOnly: z.boolean(),
  /** Published when the raffle opens: SHA-256 of the seed revealed after the draw. */
  seedHash: z.string().nullable(),
  snapshotHash: z.string().nullable(),
  serverSeed: z.string().nullable(),
  drawnAt: z.string().nullable(),
});
export type RaffleDetail = z.infer<typeof raffleDetail>;

export const adminRaffle = raffleDetail.extend({
  ticketsPerSub: z.number(),
  subCap: z.number(),
  ticketsPerGift: z.number(),
  giftCap: z.number(),
  kicksPerTicket: z.number(),
  kicksCap: z.number(),
});
export type AdminRaffle = z.infer<typeof adminRaffle>;

/** The draw's public record: the giveaway's roll record shape (the snapshot's ids are site user ids). */
export const raffleDrawRecord = z.object({
  rollId: z.string(),
  committedAt: z.string(),
  rolledAt: z.string(),
  seedHash: z.string(),
  serverSeed: z.string(),
  snapshotHash: z.string(),
  snapshot: z.array(drawEntry),
  winnersWanted: z.number(),
  winners: z.array(z.string()),
  winnerNames: z.array(z.string()),
});

export const buyTicketsBody = z.object({
  quantity: whole('Quantity', 1, MAX_TICKETS_PER_USER),
});
export type BuyTicketsBody = z.input<typeof buyTicketsBody>;

export const myRaffleTicket = z.object({
  id: z.number(),
  raffleId: z.string(),
  raffleTitle: z.string(),
  raffleStatus: z.enum(raffleStatuses),
  source: z.enum(ticketSources),
  quantity: z.number(),
  pointsPaid: z.number(),
  refunded: z.boolean(),
  /** What the owner won in this raffle (prizes in words), empty when nothing or not drawn yet. */
  won: z.array(z.string()),
  createdAt: z.string(),
});
export type MyRaffleTicket = z.infer<typeof myRaffleTicket>;

export const raffleMessages = {
  notFound: 'No such raffle.',
  notOpen: 'This raffle is not open for tickets.',
  notSold: 'Tickets for this raffle are not sold for points.',
  notEligible: (why: string) => `You cannot enter this raffle: ${why}.`,
  overCap: (cap: number, bought: number) =>
    `You can buy at most ${cap} ticket${cap === 1 ? '' : 's'} in this raffle; you have bought ${bought}.`,
  short: 'You do not have enough points for these tickets.',
  bought: (n: number) => `You bought ${n} ticket${n === 1 ? '' : 's'}.`,
  created: 'Raffle created.',
  saved: 'Raffle saved.',
  opened: 'Raffle opened: its seed hash is published.',
  closed: 'Raffle closed: its ticket snapshot is hashed.',
  cancelled: (refunds: number) => `Raffle cancelled; ${refunds} ticket purchase${refunds === 1 ? '' : 's'} refunded.`,
  drawn: 'Raffle drawn.',
  onlyDraft: 'Only a draft raffle can be edited or opened.',
  alreadyDrawn: 'This raffle is already drawn.',
  alreadyCancelled: 'This raffle is already cancelled.',
  notDrawn: 'This raffle is not drawn yet.',
} as const;

const idParams = z.object({ id: z.uuid({ error: 'must be a raffle id' }) });
const withMessage = <T extends z.ZodType>(raffle: T) => z.object({ message: z.string(), raffle });

export const raffleEndpoints = {
  list: defineEndpoint({ method: 'GET', path: '/api/raffles', access: 'visitor', response: z.array(raffleSummary) }),
  get: defineEndpoint({
    method: 'GET',
    path: '/api/raffles/:id',
    access: 'visitor',
    params: idParams,
    response: raffleDetail,
  }),
  buy: defineEndpoint({
    method: 'POST',
    path: '/api/raffles/:id/tickets',
    access: 'user',
    params: idParams,
    body: buyTicketsBody,
    response: z.object({ message: z.string(), myTickets: z.number(), balance: z.number() }),
  }),
  draw: defineEndpoint({
    method: 'GET',
    path: '/api/raffles/:id/draw',
    access: 'visitor',
    params: idParams,
    response: raffleDrawRecord,
  }),
  mine: defineEndpoint({
    method: 'GET',
    path: '/api/me/raffle-tickets',
    access: 'user',
    query: pageQuery,
    response: pageOf(myRaffleTicket),
  }),
};

const adminAction = <const A extends string>(action: A) =>
  defineEndpoint({
    method: 'POST',
    path: `/api/admin/raffles/:id/${action}`,
    access: 'admin',
    params: idParams,
    response: withMessage(adminRaffle),
  });

export const adminRaffleEndpoints = {
  list: defineEndpoint({ method: 'GET', path: '/api/admin/raffles', access: 'admin', response: z.array(adminRaffle) }),
  create: defineEndpoint({
    method: 'POST',
    path: '/api/admin/raffles',
    access: 'admin',
    body: raffleInput,
    response: withMessage(adminRaffle),
  }),
  update: defineEndpoint({
    method: 'PUT',
    path: '/api/admin/raffles/:id',
    access: 'admin',
    params: idParams,
    body: raffleInput,
    response: withMessage(adminRaffle),
  }),
  open: adminAction('open'),
  close: adminAction('close'),
  cancel: adminAction('cancel'),
  draw: adminAction('draw'),
};
