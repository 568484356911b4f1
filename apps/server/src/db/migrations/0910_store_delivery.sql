-- Store delivery (docs/features/points-and-store.md): how a product reaches the buyer, the detail the buyer gave
-- (a Steam trade URL or an email), and the pools of codes delivered instantly by the purchase.

ALTER TABLE products ADD COLUMN delivery text NOT NULL DEFAULT 'none'
  CONSTRAINT products_delivery_kind CHECK (delivery IN ('none', 'steam_trade_url', 'email', 'code'));

ALTER TABLE orders ADD COLUMN delivery_detail text
  CONSTRAINT orders_delivery_detail_length CHECK (length(delivery_detail) <= 300);

-- One row per uploaded code. The code is sealed (AES-256-GCM, CODE_ENCRYPTION_KEY); code_hash is an
-- HMAC of it under the same key, unique per product, so a duplicate is refused without opening any
-- code; tail is the masked end admins see. A purchase sets order_id (once: unique).
CREATE TABLE product_codes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  product_id bigint NOT NULL REFERENCES products (id),
  code_hash text NOT NULL,
  sealed text NOT NULL,
  tail text NOT NULL,
  order_id bigint CONSTRAINT product_codes_order_once UNIQUE REFERENCES orders (id),
  uploaded_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  sold_at timestamptz,
  CONSTRAINT product_codes_unique UNIQUE (product_id, code_hash)
);
CREATE INDEX product_codes_available ON product_codes (product_id, id) WHERE order_id IS NULL;
