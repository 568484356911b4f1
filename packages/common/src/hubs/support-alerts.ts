/**
 * The OBS alerts overlay's hub `/SupportAlerts` (docs/features/support-rewards.md): public and
 * read-only. It carries what a stream shows anyway — the supporter's Kick name, what they did and
 * the points it earned — never site ids.
 */
import { z } from 'zod';
import { call, defineHub, noPayload } from './hub';

export const supportAlert = z.object({
  id: z.number(),
  kind: z.enum(['sub', 'gift', 'kicks', 'follow']),
  kickUsername: z.string(),
  /** "gifted 5 subs", "sent 100 KICKs". */
  text: z.string(),
  points: z.number(),
  at: z.string(),
});
export type SupportAlert = z.infer<typeof supportAlert>;

export const supportAlertsHub = defineHub({
  namespace: '/SupportAlerts',
  query: z.object({}),
  calls: { GetRecentAlerts: call(noPayload, z.array(supportAlert), 'visitor') },
  events: { ReceiveAlert: supportAlert },
});
export type SupportAlertsHub = typeof supportAlertsHub;
