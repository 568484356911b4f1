import { z } from 'zod';

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
