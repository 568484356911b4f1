-- The few accounts that owe points (docs/features/partner-links.md#rules): every earning pays
-- their debt first, and a batch of earnings (the milestone poller's, 500 accounts at a time) looks
-- its accounts up here. Without it each batch read every row of users.
CREATE INDEX users_in_debt ON users (id) WHERE points_debt > 0;
