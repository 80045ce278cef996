-- Attempt counts of the limits that hold for every instance at once (docs/security.md "Limits
-- across instances"): one row per limit key and fixed window. An attempt is one upsert that adds 1
-- and answers the new count, so instances sharing the database never pass more than the limit.
-- `key` is the limit's name and a SHA-256 of what it counts (a client address, a user), never the
-- value itself. A row is dead after `expires_at` (its window and the next, which weighs it) and is
-- swept. UNLOGGED: counts are not worth a WAL write per attempt; a crash of the database forgets
-- them (the limits start afresh), which is the only price.
CREATE UNLOGGED TABLE limit_counts (
  key text NOT NULL,
  window_start timestamptz NOT NULL,
  count integer NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (key, window_start)
);
CREATE INDEX limit_counts_expires ON limit_counts (expires_at);
