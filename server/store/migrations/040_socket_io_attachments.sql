-- Pushes between instances (issue 25): the socket.io PostgreSQL adapter sends each push as a
-- NOTIFY; a push over NOTIFY's 8000-byte limit, or holding binary data, is stored here and the
-- notification names its row. The adapter deletes rows older than its cleanup interval (30 s).
-- Unused (and empty) with the embedded store, where one process holds every socket.
CREATE TABLE IF NOT EXISTS socket_io_attachments (
  id bigserial UNIQUE,
  created_at timestamptz DEFAULT now(),
  payload bytea
);
