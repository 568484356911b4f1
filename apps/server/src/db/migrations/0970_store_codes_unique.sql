-- Instant codes are unique across every pool, sold or not: code_hash (an HMAC of the code under the
-- server's code key, the same for every product, so existing rows need no new digest) becomes unique
-- on its own. See docs/security.md.
--
-- Codes already in more than one pool: the copy to keep is the earliest sold one, else the earliest
-- uploaded. Unsold copies beside it are removed (selling them would hand out a code someone already
-- has) and their products' stock recounted; a code that was already sold twice keeps both orders'
-- rows, the later one with its hash marked so the index accepts it ("~dup~" never occurs in base64url).
WITH ranked AS (
  SELECT id, order_id,
         row_number() OVER (PARTITION BY code_hash ORDER BY (order_id IS NULL), id) AS n
  FROM product_codes
)
DELETE FROM product_codes c USING ranked r
WHERE c.id = r.id AND r.n > 1 AND r.order_id IS NULL;

UPDATE product_codes c SET code_hash = c.code_hash || '~dup~' || c.id
FROM (
  SELECT id, row_number() OVER (PARTITION BY code_hash ORDER BY id) AS n FROM product_codes
) r
WHERE c.id = r.id AND r.n > 1;

UPDATE products p
SET stock = (SELECT count(*) FROM product_codes c WHERE c.product_id = p.id AND c.order_id IS NULL)
WHERE p.delivery = 'code';

ALTER TABLE product_codes DROP CONSTRAINT product_codes_unique;
ALTER TABLE product_codes ADD CONSTRAINT product_codes_code_unique UNIQUE (code_hash);
CREATE INDEX product_codes_product ON product_codes (product_id, id);
