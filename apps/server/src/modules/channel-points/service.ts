/** The channel-points bridge (docs/features/channel-points.md): its event handler and settling. */
export { redemptionHandler, settleRedemptions } from './redemptions';
