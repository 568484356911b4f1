/**
 * Support rewards (docs/features/support-rewards.md): what other modules use — the Kick event
 * handlers, paying what waited for a Kick link, and the ban gate shared with channel points.
 */
export { supportEventHandlers } from './handlers';
export { payPendingOnLink } from './rewards';
export {
  presentSettings as presentSupportRewardSettings,
  readSettingsRow as readSupportRewardSettings,
} from './settings';

/** The public "How to earn points" read (modules/earn) shows the amounts: drop it after they change. */
export const EARN_READ = 'earn';
