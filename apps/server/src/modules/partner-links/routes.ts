/**
 * Partner link routes: the user's links, a new proof code and disputes (`/api/User/partner-links…`),
 * and the admin verification queue (`/api/admin/partner-links…`, `/api/admin/partner-disputes…`).
 */
import type { FastifyInstance } from 'fastify';
import { and, eq, inArray } from 'drizzle-orm';
import { myPartnerLinkEndpoints, partnerVerificationEndpoints } from '@kickback/common/http/partner-links';
import { siteIds } from '@kickback/common/http/leaderboards';
import { partnerLinks } from '../../db/schema/partner-links';
import { AppError } from '../../lib/errors';
import { currentUser } from '../../plugins/access';
import { route } from '../../plugins/endpoints';
import { actorOf } from '../audit/service';
import { rejectClaim, verifyClaim } from './decisions';
import { awardDispute, disputeMessages, dismissDispute, openDispute, settleDebt } from './disputes';
import { myPartnerLinks, renewProofCode } from './mine';
import { loadPartnerVerificationQueue } from './verification-queue';

export const queueMessages = {
  approved: 'Claim approved.',
  rejected: 'Claim rejected.',
  bulkApproved: (n: number) => `${n} claim${n === 1 ? '' : 's'} approved.`,
  debtSettled: 'Debt settled.',
} as const;

export async function partnerLinkRoutes(app: FastifyInstance): Promise<void> {
  // A decision changes who a board shows as a player: drop the cached boards at once.
  const boardsChanged = () => {
    for (const site of siteIds) app.leaderboards.cache.invalidate(site);
  };

  route(app, myPartnerLinkEndpoints.list, async (request) => myPartnerLinks(app.db, currentUser(request).id));

  route(app, myPartnerLinkEndpoints.renewCode, async (request) => ({
    code: await renewProofCode(app.db, currentUser(request).id, request.body.field),
  }));

  route(app, myPartnerLinkEndpoints.dispute, async (request) => {
    await openDispute(app.db, currentUser(request).id, request.body, app.clock.now());
    return { message: disputeMessages.opened };
  });

  // ---- Admin ----

  route(app, partnerVerificationEndpoints.queue, async () => loadPartnerVerificationQueue(app.db));

  route(app, partnerVerificationEndpoints.approve, async (request) => {
    const actor = actorOf(currentUser(request));
    await app.db.transaction((tx) =>
      verifyClaim(tx, actor, request.params.id, { reason: request.body.reason, now: app.clock.now() }),
    );
    boardsChanged();
    return { message: queueMessages.approved };
  });

  route(app, partnerVerificationEndpoints.reject, async (request) => {
    const actor = actorOf(currentUser(request));
    await app.db.transaction((tx) => rejectClaim(tx, actor, request.params.id, request.body.reason, app.clock.now()));
    boardsChanged();
    return { message: queueMessages.rejected };
  });

  route(app, partnerVerificationEndpoints.approveMany, async (request) => {
    const n = await approveMany(app, actorOf(currentUser(request)), request.body.ids, request.body.reason);
    boardsChanged();
    return { message: queueMessages.bulkApproved(n), approved: n };
  });

  route(app, partnerVerificationEndpoints.approveExisting, async (request) => {
    const ids = (
      await app.db
        .select({ id: partnerLinks.id })
        .from(partnerLinks)
        .where(and(eq(partnerLinks.state, 'claimed'), eq(partnerLinks.migrated, true)))
    ).map((x) => x.id);
    const n = await approveMany(app, actorOf(currentUser(request)), ids, 'Linked before verification existed.');
    boardsChanged();
    return { message: queueMessages.bulkApproved(n), approved: n };
  });

  route(app, partnerVerificationEndpoints.award, async (request) => {
    await awardDispute(app.db, actorOf(currentUser(request)), request.params.id, request.body.reason, app.clock.now());
    boardsChanged();
    return { message: disputeMessages.awarded };
  });
  route(app, partnerVerificationEndpoints.dismiss, async (request) => {
    await dismissDispute(
      app.db,
      actorOf(currentUser(request)),
      request.params.id,
      request.body.reason,
      app.clock.now(),
    );
    return { message: disputeMessages.dismissed };
  });

  route(app, partnerVerificationEndpoints.settleDebt, async (request) => {
    await settleDebt(app.db, actorOf(currentUser(request)), request.params.id, request.body.reason);
    return { message: queueMessages.debtSettled };
  });
}

/** Approves each still-claimed link in its own transaction; ones decided meanwhile are skipped. */
async function approveMany(
  app: FastifyInstance,
  actor: ReturnType<typeof actorOf>,
  ids: readonly number[],
  reason: string,
): Promise<number> {
  const open = await app.db
    .select({ id: partnerLinks.id })
    .from(partnerLinks)
    .where(and(inArray(partnerLinks.id, [...ids]), eq(partnerLinks.state, 'claimed')));
  let n = 0;
  for (const { id } of open) {
    try {
      await app.db.transaction((tx) => verifyClaim(tx, actor, id, { reason, now: app.clock.now() }));
      n += 1;
    } catch (err) {
      if (!(err instanceof AppError && err.statusCode === 409)) throw err;
    }
  }
  return n;
}
