-- Gifted-sub rewards held before they pay (docs/features/support-rewards.md#gifts-on-hold): Kick
-- fires gift events for payments that then fail, so a gift waits `gift_hold_minutes` (0 = pays at
-- once) as `held` until `hold_until`, when a durable timer pays it, unless an Admin reversed it.
ALTER TABLE support_reward_settings ADD COLUMN gift_hold_minutes integer NOT NULL DEFAULT 5;
ALTER TABLE support_rewards ADD COLUMN hold_until timestamptz;
ALTER TABLE support_rewards DROP CONSTRAINT IF EXISTS support_rewards_status_check;
ALTER TABLE support_rewards ADD CONSTRAINT support_rewards_status_check
  CHECK (status IN ('pending', 'held', 'paid', 'capped', 'skipped', 'expired', 'reversed'));
CREATE INDEX support_rewards_held ON support_rewards (id) WHERE status = 'held';
