-- Open connections per client that hold for every instance at once: the rtc feed's signaling
-- sockets (RTC_MAX_CONNECTIONS_PER_CLIENT; docs/security.md "Limits across instances"). One row per
-- limit key: `leases` maps each open connection's lease id (instance/session) to the epoch
-- milliseconds at which it lapses unless renewed. Taking a place is one upsert that drops the
-- lapsed leases and adds one only when fewer than the max remain; the row's lock serializes
-- concurrent takes on PostgreSQL (PGlite runs one statement at a time). `allowed` is what the last
-- upsert decided. `key` is the limit's name and a SHA-256 of the client address, never the address.
-- A row is dead once its last lease has lapsed (`expires_at`) and is swept. UNLOGGED: a crash of
-- the database forgets the leases (the limit starts afresh; the connections renew theirs).
CREATE UNLOGGED TABLE connection_leases (
  key text PRIMARY KEY,
  leases jsonb NOT NULL,
  allowed boolean NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX connection_leases_expires ON connection_leases (expires_at);
