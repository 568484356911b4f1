-- Prizes set or run by a Moderator are capped (docs/features/staff-prize-limits.md): the admin's
-- limits (one row), the tally of such prizes paid straight through the ledger (the per-day total
-- is summed from it), the credit a held-back payout pays once an Admin approves it in Fulfilment,
-- and who last saved the giveaway's settings (its prize).
CREATE TABLE staff_prize_limits (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  per_event numeric(18, 2) NOT NULL CHECK (per_event >= 0),
  per_day numeric(18, 2) NOT NULL CHECK (per_day >= 0),
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO staff_prize_limits (id, per_event, per_day) VALUES (1, 10000, 50000);

CREATE TABLE staff_prize_payouts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  reference text NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  amount numeric(18, 2) NOT NULL,
  day date NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX staff_prize_payouts_day ON staff_prize_payouts (day);

ALTER TABLE fulfilment_items ADD COLUMN credit_currency text CHECK (credit_currency IN ('points', 'gems'));
ALTER TABLE fulfilment_items ADD COLUMN credit_amount numeric(18, 2);
ALTER TABLE fulfilment_items ADD COLUMN credit_reason text;

ALTER TABLE giveaway_settings ADD COLUMN updated_by uuid REFERENCES users (id) ON DELETE SET NULL;
