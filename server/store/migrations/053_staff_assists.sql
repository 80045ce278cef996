-- Staff assist [R11-9] (docs/fair-play.md "Staff assist"): the misses in a row a station asks for
-- before a player may ask (a station setting: 0 turns it off), and every assist asked — one at most
-- per play, the play after which it was asked — with how and when it ended and who answered.
ALTER TABLE stations ADD COLUMN assist_misses integer NOT NULL DEFAULT 10 CHECK (assist_misses BETWEEN 0 AND 100);

CREATE TABLE staff_assists (
  play_id integer PRIMARY KEY REFERENCES plays (play_id),
  station_id integer NOT NULL REFERENCES stations (station_id),
  user_id integer NOT NULL REFERENCES users (user_id),
  play_reserve_id integer NOT NULL,
  -- The player's misses in a row in their turn when they asked.
  misses integer NOT NULL,
  asked_at timestamptz NOT NULL,
  -- The end of the hold: the turn is the player's until then.
  deadline_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'asked' CHECK (status IN ('asked', 'done', 'declined', 'lapsed', 'cancelled')),
  ended_at timestamptz,
  -- The operator who answered (their login); null: lapsed or cancelled.
  operator_login text
);
CREATE INDEX staff_assists_open ON staff_assists (asked_at) WHERE status = 'asked';
CREATE INDEX staff_assists_station ON staff_assists (station_id, asked_at);
