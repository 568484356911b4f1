-- Site notifications (docs/features/store-limits.md#site-notifications): short lines for one user,
-- listed from the user menu and marked read there. Any feature may post one (notifications/service.ts).
CREATE TABLE notifications (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL,
  text text NOT NULL,
  link text,
  created_at timestamptz NOT NULL DEFAULT now(),
  read_at timestamptz
);
CREATE INDEX notifications_user_newest ON notifications (user_id, id DESC);
CREATE INDEX notifications_user_unread ON notifications (user_id) WHERE read_at IS NULL;
