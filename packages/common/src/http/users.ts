import { z } from 'zod';
import { authUser } from './auth';
import { defineEndpoint } from './endpoint';

/** `GET /api/user/search?query=…[&is_discord_linked=1]` (admin pickers). */
export const userSearchQuery = z.object({
  query: z.string().max(64).default(''),
  is_discord_linked: z.enum(['0', '1', 'true', 'false']).optional(),
});

/** One option of the admin user pickers (react-select): value is the user id (openId). */
export const userOption = z.object({
  value: z.string(),
  label: z.string(),
  avatarUrl: z.string().nullable(),
  kickUsername: z.string().nullable(),
  discordUsername: z.string().nullable(),
});
export type UserOption = z.infer<typeof userOption>;

export const userSearchResult = z.array(userOption);

export const USER_SEARCH_LIMIT = 20;

export const userEndpoints = {
  /** The signed-in user (the web app's session check). */
  ping: defineEndpoint({ method: 'GET', path: '/api/User/ping', access: 'user', response: authUser }),
  search: defineEndpoint({
    method: 'GET',
    path: '/api/user/search',
    access: 'moderator',
    query: userSearchQuery,
    response: userSearchResult,
  }),
};
