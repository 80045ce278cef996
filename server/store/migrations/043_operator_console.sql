-- The operator console (issue 26, docs/operator-console.md).

-- A paused station keeps its line but hands out no turn and starts no continue.
ALTER TABLE stations ADD COLUMN IF NOT EXISTS paused boolean NOT NULL DEFAULT false;

-- A suspended user (status 2) gets their own status back when restored.
ALTER TABLE users ADD COLUMN IF NOT EXISTS status_before_suspension smallint;

-- Emergency maintenance of the whole service: while a row has no end, every player call answers
-- emergency (9001) with its info. At most one runs at a time (the partial unique index).
CREATE TABLE IF NOT EXISTS service_emergencies (
  emergency_id serial PRIMARY KEY,
  info text NOT NULL,
  started_at timestamptz NOT NULL,
  started_by text NOT NULL,
  ended_at timestamptz,
  ended_by text
);
CREATE UNIQUE INDEX IF NOT EXISTS service_emergencies_running ON service_emergencies ((ended_at IS NULL)) WHERE ended_at IS NULL;

-- The console's floor shows gated (VIP) stations' stills with a media token of no user.
ALTER TABLE media_tokens ALTER COLUMN user_id DROP NOT NULL;
