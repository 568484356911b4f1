-- The 18+ gate (docs/features/sign-in-and-age-gate.md#the-18-gate): a signed-in user's confirmation
-- is remembered on the account, so a new browser does not ask again. The gate's on/off switch and
-- text live in `settings` (key 'age_gate').
ALTER TABLE users ADD COLUMN age_confirmed_at timestamptz;
