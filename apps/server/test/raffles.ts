/** Test helpers for raffles: a raffle made and opened through the admin routes, tickets bought. */
import type { RaffleInput } from '@kickback/common/http/raffles';
import type { TestApp, TestUser } from './app';

export function raffleBody(t: TestApp, over: Partial<RaffleInput> = {}): RaffleInput {
  const now = t.clock.now().getTime();
  return {
    title: 'Knife raffle',
    description: 'Two prizes',
    prizes: [
      { kind: 'points', points: 500 },
      { kind: 'item', item: 'AK-47 | Redline' },
    ],
    ticketPrice: 10,
    maxTicketsPerUser: 5,
    opensAt: new Date(now - 1000).toISOString(),
    closesAt: new Date(now + 60 * 60_000).toISOString(),
    ...over,
  };
}

/** Creates (and unless told otherwise opens) a raffle; returns its id. */
export async function makeRaffle(
  t: TestApp,
  admin: TestUser,
  over: Partial<RaffleInput> = {},
  open = true,
): Promise<string> {
  const created = await t.call({ method: 'POST', url: '/api/admin/raffles', as: admin, body: raffleBody(t, over) });
  if (created.statusCode !== 200) throw new Error(`create raffle: ${created.statusCode} ${created.body}`);
  const id = (created.json() as { raffle: { id: string } }).raffle.id;
  if (open) {
    const opened = await t.call({ method: 'POST', url: `/api/admin/raffles/${id}/open`, as: admin });
    if (opened.statusCode !== 200) throw new Error(`open raffle: ${opened.statusCode} ${opened.body}`);
  }
  return id;
}

export function buy(t: TestApp, as: TestUser, id: string, quantity: number) {
  return t.call({ method: 'POST', url: `/api/raffles/${id}/tickets`, as, body: { quantity } });
}
