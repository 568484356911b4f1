-- Uploaded images (docs/features/uploaded-images.md): the re-encoded bytes of each picture an admin
-- uploaded, stored once per content (the SHA-256 of the bytes is the key, the name in the image's
-- URL and its ETag), so every process serves the same image and an upload repeated stores nothing.
CREATE TABLE images (
  hash text PRIMARY KEY CHECK (hash ~ '^[0-9a-f]{64}$'),
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/webp', 'image/gif')),
  bytes bytea NOT NULL,
  width integer NOT NULL CHECK (width > 0),
  height integer NOT NULL CHECK (height > 0),
  uploaded_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
