/**
 * Support rewards (docs/features/support-rewards.md): what other modules use — the Kick event
 * handlers, paying what waited for a Kick link, and the ban gate shared with channel points.
 */
export { supportEventHandlers } from './handlers';
export { payPendingOnLink } from './rewards';
