import { z } from 'zod';
import { defineEndpoint, pageNumber, pageOf } from './endpoint';

export const auditQuery = z.object({
  action: z.string().max(64).optional(),
  actor: z.string().max(64).optional(),
  target: z.string().max(100).optional(),
  page: pageNumber,
});
export type AuditQuery = z.infer<typeof auditQuery>;

export const auditEntry = z.object({
  id: z.number(),
  actor: z.string(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditPage = pageOf(auditEntry).extend({ actions: z.array(z.string()) });
export type AuditPage = z.infer<typeof auditPage>;

export const auditEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/admin/audit',
    access: 'admin',
    query: auditQuery,
    response: auditPage,
  }),
};
