-- A video of every play (issue 44, docs/clips.md) [R11-5]: both cameras from the play's start to
-- its result plus 3 s, remuxed as WebM (VP8, not encoded again), one file per camera under the
-- clips folder. `clip_id` is 16 random bytes (base64url): the only name a clip is reached by.
-- `view_secret` signs the short-lived addresses its player and the operators are given.
-- A clip is seen by its player and the operators; by anyone once `shared`. It is removed 30 days
-- after the play (`expires_at`), never while `kept` (then `expires_at` is null), oldest unkept
-- first when the folder passes its cap, and with the account when the player deletes it.
CREATE TABLE play_clips (
  clip_id text PRIMARY KEY CHECK (clip_id ~ '^[A-Za-z0-9_-]{22}$'),
  play_id integer NOT NULL UNIQUE REFERENCES plays (play_id),
  user_id integer NOT NULL REFERENCES users (user_id),
  station_id integer NOT NULL REFERENCES stations (station_id),
  -- The prize as it was when the play started (the station's may change later).
  prize_name text NOT NULL,
  view_secret text NOT NULL,
  status text NOT NULL CHECK (status IN ('recording', 'ready', 'failed', 'removed')),
  -- The cameras with a file ('front', 'side'), their bytes in all and the longest one's length.
  cameras text[] NOT NULL DEFAULT '{}',
  bytes bigint NOT NULL DEFAULT 0 CHECK (bytes >= 0),
  duration_ms integer NOT NULL DEFAULT 0 CHECK (duration_ms >= 0),
  -- Why it failed or was removed: no_video, recorder, interrupted / expired, cap, account.
  reason text,
  shared boolean NOT NULL DEFAULT false,
  kept boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  ready_at timestamptz,
  expires_at timestamptz,
  removed_at timestamptz,
  CHECK (kept = (expires_at IS NULL) OR status = 'removed')
);
CREATE INDEX play_clips_user_idx ON play_clips (user_id) WHERE status <> 'removed';
CREATE INDEX play_clips_expiry_idx ON play_clips (expires_at) WHERE status IN ('ready', 'failed') AND NOT kept;
CREATE INDEX play_clips_age_idx ON play_clips (created_at) WHERE status = 'ready';
