-- The Moderator role (docs/security.md#roles): runs games, giveaways and predictions and sees
-- Fulfilment; cannot change balances, products, roles, policies, site settings or exclusions.
ALTER TABLE users DROP CONSTRAINT IF EXISTS users_role_check;
ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('User', 'Moderator', 'Admin'));
