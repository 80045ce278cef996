-- The daily free play [R11-8] (docs/fair-play.md): one per player per Japanese day, granted at the
-- day's first visit, usable at ticket stations until 24:00 JST. The primary key makes it one a day
-- whatever the concurrency; play_id records the play it paid for (NULL while unused).
CREATE TABLE daily_free_plays (
  user_id integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  jst_day date NOT NULL,
  granted_at timestamptz NOT NULL,
  play_id integer REFERENCES plays (play_id) ON DELETE SET NULL,
  used_at timestamptz,
  PRIMARY KEY (user_id, jst_day)
);
CREATE UNIQUE INDEX daily_free_plays_play_idx ON daily_free_plays (play_id) WHERE play_id IS NOT NULL;
