/** The channel-points bridge (docs/features/channel-points.md): its event handler and settling. */
export { redemptionHandler, redemptionThanks, settleRedemptions, type CreditedRedemption } from './redemptions';
