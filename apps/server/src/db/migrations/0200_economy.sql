-- The points economy (docs/features/points-and-store.md#the-ledger): the store's products, orders
-- (the price paid is kept; their status lives on the order's fulfilment item, kind 'order'), and
-- the per-minute chat-points claims.

CREATE TABLE products (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  price numeric(18, 2) NOT NULL CHECK (price > 0),
  image_url text,
  category text NOT NULL CHECK (length(category) BETWEEN 1 AND 40),
  -- NULL: unlimited. Never negative: the conditional decrement cannot oversell.
  stock integer CONSTRAINT products_stock_non_negative CHECK (stock >= 0),
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX products_active_category ON products (active, category);

CREATE TABLE orders (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  product_id bigint NOT NULL REFERENCES products (id),
  product_name text NOT NULL,
  price numeric(18, 2) NOT NULL CHECK (price > 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX orders_user_newest ON orders (user_id, id DESC);

-- One row per user and minute that earned chat points: the cap holds across server processes.
-- Old rows are pruned; only the current minute matters.
CREATE TABLE chat_point_minutes (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  minute timestamptz NOT NULL,
  PRIMARY KEY (user_id, minute)
);
CREATE INDEX chat_point_minutes_minute ON chat_point_minutes (minute);
