/**
 * Partner links (docs/features/partner-links.md): a partner id is a claim until proven. The user's view of their links
 * (`GET /api/User/partner-links`), a new proof code, a dispute, and the admin verification queue.
 */
import { z } from 'zod';
import { idParam } from './strict-int';
import { defineEndpoint } from './endpoint';
import { messageBody } from './errors';
import { partnerIdFields, type PartnerIdKey } from './accounts';

export const partnerIdKeys = partnerIdFields.map((f) => f.key) as [PartnerIdKey, ...PartnerIdKey[]];
export const partnerIdKey = z.enum(partnerIdKeys);

/**
 * How a claim is proven. `code`: the player puts a one-time code into their name on the partner
 * site and the next poll that lists it verifies the link (Clash, RustMagic, Cases report a name
 * the player controls). `admin`: an admin decides in the queue (Roobet usernames cannot change).
 */
export type ProofMethod = 'code' | 'admin';
export const proofMethodOf: Record<PartnerIdKey, ProofMethod> = {
  ClashId: 'code',
  RustMagicId: 'code',
  CasesId: 'code',
  RoobetName: 'admin',
};

export const partnerLinkState = z.enum(['claimed', 'verified', 'rejected', 'unlinked']);
export type PartnerLinkStateName = z.infer<typeof partnerLinkState>;

/** Shown for a claimed link everywhere (profile, My activity). */
export const PENDING_VERIFICATION = 'Pending verification';

export const myPartnerLink = z.object({
  id: z.number(),
  field: partnerIdKey,
  label: z.string(),
  value: z.string(),
  state: partnerLinkState,
  proof: z.enum(['code', 'admin']),
  proofCode: z.string().nullable(),
  /** Wager points held until the link is verified. */
  heldPoints: z.number(),
  claimedAt: z.string(),
  decidedAt: z.string().nullable(),
  reason: z.string().nullable(),
});
export type MyPartnerLink = z.infer<typeof myPartnerLink>;

export const myDispute = z.object({
  id: z.number(),
  field: partnerIdKey,
  label: z.string(),
  value: z.string(),
  status: z.enum(['open', 'awarded', 'dismissed']),
  createdAt: z.string(),
  reason: z.string().nullable(),
});
export type MyDispute = z.infer<typeof myDispute>;

export const myPartnerLinks = z.object({
  /** The user's current links (claimed or verified) and the last decided ones. */
  links: z.array(myPartnerLink),
  disputes: z.array(myDispute),
  /** Points owed after a lost dispute; spending is blocked while above zero. */
  pointsDebt: z.number(),
});
export type MyPartnerLinks = z.infer<typeof myPartnerLinks>;

/** `POST /api/User/partner-links/code`: a fresh proof code for one of the user's claimed links. */
export const proofCodeBody = z.object({ field: partnerIdKey });

export const DISPUTE_NOTE_MAX = 500;
/** `POST /api/User/partner-links/dispute`: "this id is mine" about an id someone else holds. */
export const disputeBody = z.object({
  field: partnerIdKey,
  value: z.string().trim().min(1, 'Enter the id you want to contest.').max(64),
  note: z.string().trim().max(DISPUTE_NOTE_MAX).default(''),
});
export type DisputeBody = z.infer<typeof disputeBody>;

// ---- Admin: the verification queue (`/api/admin/partner-links`) ----

export const queueUser = z.object({
  id: z.string(),
  username: z.string(),
  steamId: z.string(),
  kickUsername: z.string().nullable(),
  /** When their Kick account last chatted on stream, if ever. */
  lastChatAt: z.string().nullable(),
  createdAt: z.string(),
});

export const partnerRowFigures = z.object({
  siteName: z.string(),
  username: z.string(),
  externalId: z.string().nullable(),
  wagered: z.number(),
  unit: z.string(),
  seenAt: z.string(),
});

export const otherClaim = z.object({
  userId: z.string(),
  username: z.string(),
  state: z.string(),
  at: z.string(),
  kind: z.enum(['link', 'dispute']),
});

export const queueClaim = z.object({
  id: z.number(),
  field: partnerIdKey,
  label: z.string(),
  value: z.string(),
  externalId: z.string().nullable(),
  state: partnerLinkState,
  proof: z.enum(['code', 'admin']),
  heldPoints: z.number(),
  creditedPoints: z.number(),
  migrated: z.boolean(),
  claimedAt: z.string(),
  user: queueUser,
  partnerRow: partnerRowFigures.nullable(),
  others: z.array(otherClaim),
});
export type QueueClaim = z.infer<typeof queueClaim>;

export const queueDispute = z.object({
  id: z.number(),
  value: z.string(),
  note: z.string(),
  createdAt: z.string(),
  claimant: queueUser,
  link: queueClaim,
});
export type QueueDispute = z.infer<typeof queueDispute>;

export const partnerVerificationQueue = z.object({
  claims: z.array(queueClaim),
  disputes: z.array(queueDispute),
  /** Claimed links that existed before verification did (for "mark all existing as verified"). */
  migratedPending: z.number(),
});
export type PartnerVerificationQueue = z.infer<typeof partnerVerificationQueue>;

export const queueIdParams = z.object({ id: idParam });

export const REASON_MAX = 500;
export const approveBody = z.object({ reason: z.string().trim().max(REASON_MAX).default('') });
export const rejectBody = z.object({
  reason: z.string().trim().min(1, 'Give a reason.').max(REASON_MAX),
});
export const bulkApproveBody = z.object({
  ids: z.array(z.number().int().positive()).min(1, 'Choose at least one claim.').max(500),
  reason: z.string().trim().max(REASON_MAX).default(''),
});
export const bulkResult = z.object({ message: z.string(), approved: z.number() });

export const debtUserParams = z.object({ id: z.uuid() });

/** The signed-in user's partner links: their state, a new proof code, contesting a taken id. */
export const myPartnerLinkEndpoints = {
  list: defineEndpoint({ method: 'GET', path: '/api/User/partner-links', access: 'user', response: myPartnerLinks }),
  renewCode: defineEndpoint({
    method: 'POST',
    path: '/api/User/partner-links/code',
    access: 'user',
    body: proofCodeBody,
    response: z.object({ code: z.string() }),
  }),
  dispute: defineEndpoint({
    method: 'POST',
    path: '/api/User/partner-links/dispute',
    access: 'user',
    body: disputeBody,
    response: messageBody,
  }),
};

const decision = <const P extends `/api/admin/${string}/:id/${string}`, B extends z.ZodType>(path: P, body: B) =>
  defineEndpoint({ method: 'POST', path, access: 'admin', params: queueIdParams, body, response: messageBody });

/** Admin → Verification: the queue of claims and disputes and their decisions. */
export const partnerVerificationEndpoints = {
  queue: defineEndpoint({
    method: 'GET',
    path: '/api/admin/partner-links',
    access: 'admin',
    response: partnerVerificationQueue,
  }),
  approve: decision('/api/admin/partner-links/:id/approve', approveBody),
  reject: decision('/api/admin/partner-links/:id/reject', rejectBody),
  approveMany: defineEndpoint({
    method: 'POST',
    path: '/api/admin/partner-links/approve',
    access: 'admin',
    body: bulkApproveBody,
    response: bulkResult,
  }),
  approveExisting: defineEndpoint({
    method: 'POST',
    path: '/api/admin/partner-links/approve-existing',
    access: 'admin',
    response: bulkResult,
  }),
  award: decision('/api/admin/partner-disputes/:id/award', approveBody),
  dismiss: decision('/api/admin/partner-disputes/:id/dismiss', rejectBody),
  settleDebt: defineEndpoint({
    method: 'POST',
    path: '/api/admin/users/:id/settle-debt',
    access: 'admin',
    params: debtUserParams,
    body: rejectBody,
    response: messageBody,
  }),
};
