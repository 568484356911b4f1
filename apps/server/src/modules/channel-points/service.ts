/** The channel-points bridge (docs/features/channel-points.md): its event handler and settling. */
export { redemptionHandler, redemptionThanks, settleRedemptions, type CreditedRedemption } from './redemptions';
export { listChannelRewards } from './rewards';

/** The public "How to earn points" read (modules/earn) lists the rewards: drop it after one changes. */
export const EARN_READ = 'earn';
