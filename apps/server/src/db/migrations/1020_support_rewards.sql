-- Support rewards and the channel-points bridge (docs/features/support-rewards.md,
-- docs/features/channel-points.md).
--
-- The admin's amounts (one row). Amounts are points; a cap of 0 means no cap.
CREATE TABLE support_reward_settings (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  enabled boolean NOT NULL DEFAULT true,
  sub_points numeric(18, 2) NOT NULL CHECK (sub_points >= 0),
  gift_points numeric(18, 2) NOT NULL CHECK (gift_points >= 0),
  kick_points numeric(18, 2) NOT NULL CHECK (kick_points >= 0),
  follow_points numeric(18, 2) NOT NULL CHECK (follow_points >= 0),
  daily_cap numeric(18, 2) NOT NULL CHECK (daily_cap >= 0),
  pending_hours integer NOT NULL CHECK (pending_hours >= 0),
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO support_reward_settings (id, sub_points, gift_points, kick_points, follow_points, daily_cap, pending_hours)
VALUES (1, 500, 500, 10, 100, 5000, 72);

-- One row per reward: its key is unique (the event's delivery, or `follow:<kick user id>` so a
-- follow pays once ever). Status: pending (Kick account not linked yet), paid, capped (the day's
-- cap was reached), skipped (excluded, banned, anonymous, feature off), expired (not linked within
-- the window), reversed (an admin took it back).
CREATE TABLE support_rewards (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  key text NOT NULL UNIQUE,
  kind text NOT NULL CHECK (kind IN ('sub', 'gift', 'kicks', 'follow')),
  kick_user_id text,
  kick_username text,
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  units integer NOT NULL CHECK (units > 0),
  amount numeric(18, 2) NOT NULL DEFAULT 0,
  status text NOT NULL CHECK (status IN ('pending', 'paid', 'capped', 'skipped', 'expired', 'reversed')),
  note text,
  event_at timestamptz NOT NULL,
  paid_at timestamptz,
  ledger_id bigint,
  announced boolean NOT NULL DEFAULT true,
  reversed_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX support_rewards_pending ON support_rewards (kick_user_id) WHERE status = 'pending';
CREATE INDEX support_rewards_user_day ON support_rewards (user_id, kind, paid_at);
CREATE INDEX support_rewards_unannounced ON support_rewards (id) WHERE NOT announced;
CREATE INDEX support_rewards_newest ON support_rewards (id DESC);

-- The Kick channel rewards the admin created from the site, and the points each is worth.
CREATE TABLE kick_channel_rewards (
  id text PRIMARY KEY,
  title text NOT NULL,
  cost integer NOT NULL,
  points numeric(18, 2) NOT NULL CHECK (points > 0),
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Each redemption once (its Kick id is the key): credited and accepted, or rejected with the reason.
-- `settled_at` is set once Kick took the accept or reject, so a restart retries the unsettled.
CREATE TABLE kick_reward_redemptions (
  id text PRIMARY KEY,
  reward_id text NOT NULL,
  kick_user_id text,
  kick_username text,
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  points numeric(18, 2) NOT NULL DEFAULT 0,
  outcome text NOT NULL CHECK (outcome IN ('accepted', 'rejected')),
  reason text,
  ledger_id bigint,
  settled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX kick_reward_redemptions_unsettled ON kick_reward_redemptions (created_at) WHERE settled_at IS NULL;
