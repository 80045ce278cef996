-- The exact per-attempt limits that hold for every instance at once (docs/security.md "Limits
-- across instances"): sign-in, password checks, reset requests and codes, verification codes,
-- operator sign-in. One row per limit key: the epoch milliseconds of its recent attempts (at most
-- the limit's max, the newest) and `allowed`, what the last upsert answered. An attempt is one
-- upsert that keeps the attempts still inside the window and appends the new one only when fewer
-- than the max remain; the row's lock serializes concurrent attempts on PostgreSQL (PGlite runs one
-- statement at a time), so instances sharing the database never pass more than the max.
-- `key` is the limit's name and a SHA-256 of what it counts (an e-mail and address, a user),
-- never the value itself. A row is dead once its newest attempt has left the window
-- (`expires_at`) and is swept. UNLOGGED like limit_counts: a crash of the database forgets the
-- attempts (the limits start afresh), which is the only price.
CREATE UNLOGGED TABLE attempt_logs (
  key text PRIMARY KEY,
  attempts bigint[] NOT NULL,
  allowed boolean NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX attempt_logs_expires ON attempt_logs (expires_at);
