-- Removed accounts (docs/features/site-and-admin-tools.md#removing-an-account): a removed user's
-- row stays as a tombstone so the finished events it took part in keep their rows; this marks it.
ALTER TABLE users ADD COLUMN removed_at timestamptz;
