/**
 * The ways to earn points as the page lists them, from `GET /api/earn`: one entry per way with its
 * amount in words, in the order a viewer meets them (chat, support on Kick, channel points,
 * wagering). A way that pays nothing right now (support rewards off, an amount of 0) is kept and
 * marked off, so nobody looks for it elsewhere.
 */
import { formatAmount } from '../../lib/format';
import type { EarnWays } from '@kickback/common/http/earn';

export type EarnGroup = 'chat' | 'support' | 'channel-points' | 'wagering';

export interface EarnWay {
  key: string;
  group: EarnGroup;
  title: string;
  /** "500.00 points" */
  amount: string;
  /** What pays it: "for each new or renewed sub". */
  per: string;
  on: boolean;
}

const pts = (n: number) => `${formatAmount(n)} points`;

export function earnWaysOf(data: EarnWays): EarnWay[] {
  const s = data.support;
  const support = (key: string, title: string, amount: number, per: string): EarnWay => ({
    key,
    group: 'support',
    title,
    amount: pts(amount),
    per,
    on: s.enabled && amount > 0,
  });
  return [
    {
      key: 'chat',
      group: 'chat',
      title: 'Chat while the stream is live',
      amount: pts(data.chatPointsPerMinute),
      per: 'for each minute you chat in Kick chat while the stream is live',
      on: data.chatPointsPerMinute > 0,
    },
    support('sub', 'Subscribe', s.subPoints, 'for each new or renewed sub on Kick'),
    support('gift', 'Gift subs', s.giftPoints, 'for each sub you gift: the points go to you, the gifter'),
    support('kicks', 'Send KICKs', s.kickPoints, 'for each KICK you send'),
    support('follow', 'Follow the channel', s.followPoints, 'once, for your first follow on Kick'),
    ...data.channelRewards.map((r, i): EarnWay => ({
      key: `reward:${i}`,
      group: 'channel-points',
      title: r.title,
      amount: pts(r.points),
      per: `when you redeem it on Kick for ${r.cost.toLocaleString('en-US')} channel points`,
      on: true,
    })),
    ...data.wagering.map((w): EarnWay => ({
      key: `wager:${w.site}`,
      group: 'wagering',
      title: `Wager on ${w.name}`,
      amount: pts(w.pointsPerUnit),
      per:
        w.codes.length > 0
          ? `for each 1.00 wagered under the code ${w.codes.join(' or ')}`
          : 'for each 1.00 wagered under the code',
      on: true,
    })),
  ];
}
