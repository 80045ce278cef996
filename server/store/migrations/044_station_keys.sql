-- Station keys (issue 42, docs/security.md "Station keys"): what a station agent presents in its
-- hello. The key is shown once when issued; only the SHA-256 of its secret part is stored. A key
-- names the stations it may drive. A rotation gives the old key an end (expires_at: the overlap in
-- which both work) and points it at its successor (rotated_to); a revocation ends it at once.
-- station_ids cannot carry a foreign key (an array): the service inserts a key only when every id
-- names a station, in the same statement, and stations are never deleted.
CREATE TABLE IF NOT EXISTS station_keys (
  key_id text PRIMARY KEY CHECK (key_id ~ '^[a-z0-9]{12}$'),
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 64),
  secret_hash bytea NOT NULL CHECK (octet_length(secret_hash) = 32),
  station_ids integer[] NOT NULL CHECK (cardinality(station_ids) BETWEEN 1 AND 64),
  created_at timestamptz NOT NULL,
  created_by text NOT NULL,
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz,
  rotated_to text REFERENCES station_keys (key_id)
);
CREATE INDEX IF NOT EXISTS station_keys_created_idx ON station_keys (created_at, key_id);
