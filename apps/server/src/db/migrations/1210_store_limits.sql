-- Store limits (docs/features/store-limits.md): per product, how many one buyer may buy per window
-- (a UTC day, a UTC week from Monday, a partner's leaderboard cycle, or ever), a cooldown between
-- two purchases by the same buyer, and who may buy at all (`restriction`: null for everyone,
-- {"kind":"subscribers"} for Kick subscribers; other kinds are added to the JSON later).
ALTER TABLE products
  ADD COLUMN limit_count integer CHECK (limit_count IS NULL OR limit_count > 0),
  ADD COLUMN limit_window text CHECK (limit_window IS NULL OR limit_window IN ('day', 'week', 'cycle', 'ever')),
  ADD COLUMN limit_site smallint,
  ADD COLUMN cooldown_minutes integer CHECK (cooldown_minutes IS NULL OR cooldown_minutes > 0),
  ADD COLUMN restriction jsonb,
  ADD CONSTRAINT products_limit_whole CHECK ((limit_count IS NULL) = (limit_window IS NULL)),
  ADD CONSTRAINT products_limit_cycle_site CHECK ((limit_window = 'cycle') = (limit_site IS NOT NULL));

-- One row per (buyer, limited product): a purchase of a limited product locks it first, so two
-- purchases by the same buyer of the same product run one after the other in every process.
CREATE TABLE store_purchase_slots (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  product_id bigint NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, product_id)
);

-- "Notify me when back in stock": one row per asker until the next restock answers it.
CREATE TABLE store_restock_requests (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  product_id bigint NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, product_id)
);
CREATE INDEX store_restock_requests_product ON store_restock_requests (product_id);
