/** Admin: the audit log, newest first, filterable by action, actor and target. */
import type { FastifyInstance } from 'fastify';
import { and, desc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import { auditEndpoints } from '@kickback/common/http/audit';
import { readPage } from '../../db/page';
import { auditLog } from '../../db/schema/audit';
import { route } from '../../plugins/endpoints';

const PAGE_SIZE = 50;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function auditRoutes(app: FastifyInstance): Promise<void> {
  route(app, auditEndpoints.list, async (request) => {
    const { action, actor, target, page } = request.query;
    const filters: SQL[] = [];
    if (action) filters.push(eq(auditLog.action, action));
    if (actor) filters.push(ilike(auditLog.actorLabel, `${escapeLike(actor)}%`));
    if (target) filters.push(eq(auditLog.targetId, target));
    const where = filters.length ? and(...filters) : undefined;
    const [entries, actions] = await Promise.all([
      readPage(app.db, {
        rows: app.db.select().from(auditLog).where(where).orderBy(desc(auditLog.id)).$dynamic(),
        count: { from: auditLog, where },
        page,
        pageSize: PAGE_SIZE,
        map: (r) => ({
          id: r.id,
          actor: r.actorLabel,
          action: r.action,
          targetType: r.targetType,
          targetId: r.targetId,
          before: r.before,
          after: r.after,
          createdAt: r.createdAt.toISOString(),
        }),
      }),
      app.db
        .selectDistinct({ action: auditLog.action })
        .from(auditLog)
        .orderBy(sql`1`),
    ]);
    return { ...entries, actions: actions.map((a) => a.action) };
  });
}
