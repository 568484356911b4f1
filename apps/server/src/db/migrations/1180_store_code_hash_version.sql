-- Store codes' uniqueness hash in one normal form (docs/features/points-and-store.md).
-- hash_version says which spelling a code's HMAC was taken over: 1, the code as typed (every code
-- uploaded so far), 2, its normal form (codeKeyOf). New uploads write 2 themselves; the default stays
-- 1, so a code uploaded by a process of an older release still running beside a new one (a rolling
-- upgrade) counts as hashed as typed. The server re-hashes the version-1 codes at start, with the code
-- key (modules/store/rehash.ts): it needs each code opened.
-- A code whose normal form another code already has is withdrawn from sale if unsold
-- (withdrawn_at set, kept for the audit) and never sold; the pool's stock counts neither.
ALTER TABLE product_codes ADD COLUMN hash_version smallint NOT NULL DEFAULT 1;
ALTER TABLE product_codes ADD COLUMN withdrawn_at timestamptz;

DROP INDEX product_codes_available;
CREATE INDEX product_codes_available ON product_codes (product_id, id) WHERE order_id IS NULL AND withdrawn_at IS NULL;
CREATE INDEX product_codes_old_hash ON product_codes (id) WHERE hash_version < 2;
