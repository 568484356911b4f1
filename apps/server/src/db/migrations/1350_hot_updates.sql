-- Room on each page for the next version of a row (docs/benchmarks.md#milestones): balances,
-- milestone progress and standings are rewritten far more often than rows are added, and an update
-- that fits on its row's page and changes no indexed column is a HOT update — no new entry in any
-- of the table's indexes (users has six). A full page sends the new version elsewhere and indexes
-- it again everywhere. Applies to pages written from now on; the existing ones keep what they have
-- until they are rewritten (VACUUM FULL, or as rows move).
ALTER TABLE users SET (fillfactor = 90);
ALTER TABLE milestone_progress SET (fillfactor = 80);
ALTER TABLE leaderboard_standings SET (fillfactor = 80);
