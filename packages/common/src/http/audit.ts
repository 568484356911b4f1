import { z } from 'zod';
import { defineEndpoint } from './endpoint';

export const auditQuery = z.object({
  action: z.string().max(64).optional(),
  actor: z.string().max(64).optional(),
  target: z.string().max(100).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
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

export const auditPage = z.object({
  items: z.array(auditEntry),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  actions: z.array(z.string()),
});
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
