/**
 * Site notifications (docs/features/store-limits.md#site-notifications): a signed-in user's own
 * short lines (a product back in stock, and whatever other features post), listed from the user
 * menu and marked read there.
 */
import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { messageBody } from './errors';

export const MAX_NOTIFICATIONS_LISTED = 50;

export const notification = z.object({
  id: z.number(),
  kind: z.string(),
  text: z.string(),
  /** A path of the site to open (null: none). */
  link: z.string().nullable(),
  createdAt: z.string(),
  read: z.boolean(),
});
export type Notification = z.infer<typeof notification>;

export const notificationList = z.object({
  items: z.array(notification),
  unread: z.number(),
});
export type NotificationList = z.infer<typeof notificationList>;

/** Marks these (or, with none given, every one) read. */
export const markReadBody = z.object({
  ids: z
    .array(z.number().int().positive(), { error: 'must be a list of notification ids' })
    .max(MAX_NOTIFICATIONS_LISTED, `must be at most ${MAX_NOTIFICATIONS_LISTED} ids`)
    .optional(),
});
export type MarkReadBody = z.input<typeof markReadBody>;

export const notificationEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/notifications',
    access: 'user',
    response: notificationList,
  }),
  markRead: defineEndpoint({
    method: 'POST',
    path: '/api/notifications/read',
    access: 'user',
    body: markReadBody,
    response: messageBody,
  }),
};
