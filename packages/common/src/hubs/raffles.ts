/**
 * The raffles' hub `/Raffles`: public and read-only. The raffle pages and the OBS wheel
 * (`/overlay/raffle`) hear tickets sold change and a draw happen; nothing here is private.
 */
import { z } from 'zod';
import { raffleStatuses } from '../http/raffles';
import { call, defineHub, noPayload } from './hub';

export const raffleWheelName = z.object({
  username: z.string(),
  color: z.string().nullable(),
  avatarUrl: z.string().nullable(),
});

export const raffleDrawn = z.object({
  raffleId: z.string(),
  title: z.string(),
  drawnAt: z.string(),
  /** The winners in draw order, each with the prize of its position. */
  winners: z.array(raffleWheelName.extend({ prize: z.string() })),
  /** Names to fill the wheel with (a sample of the entrants, at most 100). */
  reel: z.array(raffleWheelName),
});
export type RaffleDrawn = z.infer<typeof raffleDrawn>;

export const raffleChanged = z.object({
  id: z.string(),
  status: z.enum(raffleStatuses),
  ticketsSold: z.number(),
});
export type RaffleChanged = z.infer<typeof raffleChanged>;

export const rafflesHub = defineHub({
  namespace: '/Raffles',
  query: z.object({}),
  calls: { GetLastDraw: call(noPayload, raffleDrawn.nullable(), 'visitor') },
  events: {
    RaffleChanged: raffleChanged,
    RaffleDrawn: raffleDrawn,
  },
});
export type RafflesHub = typeof rafflesHub;
