-- The play loop (docs/play.md): each station's machine (arm strength, prize shape, the prizes on
-- the field), every play with everything that decided it (the play log), and the assist gauge.

ALTER TABLE stations ADD COLUMN arm_strength real NOT NULL DEFAULT 0.5 CHECK (arm_strength BETWEEN 0 AND 1);
ALTER TABLE stations ADD COLUMN prize_shape text NOT NULL DEFAULT 'plush' CHECK (prize_shape IN ('box', 'plush', 'capsule'));

-- The prizes lying in a station's field (the simulation's CranePrize list) and the next prize id.
CREATE TABLE station_machines (
  station_id integer PRIMARY KEY REFERENCES stations (station_id),
  layout jsonb NOT NULL,
  next_prize_id integer NOT NULL,
  updated_at timestamptz NOT NULL
);

-- One row per play: its price, the arm strength and assist level it ran with, its seed, the field
-- it started from and the inputs it got, so the player (and anyone auditing) can replay it.
CREATE TABLE plays (
  play_id serial PRIMARY KEY,
  play_reserve_id integer NOT NULL REFERENCES station_reservations (play_reserve_id),
  user_id integer NOT NULL REFERENCES users (user_id),
  station_id integer NOT NULL REFERENCES stations (station_id),
  station_setting_id integer NOT NULL REFERENCES station_settings (station_setting_id),
  currency text NOT NULL CHECK (currency IN ('tc', 'ticket', 'free')),
  price integer NOT NULL CHECK (price >= 0),
  -- What the charge took from each half of the wallet (a refund gives back exactly this).
  charged_free integer NOT NULL DEFAULT 0,
  charged_toll integer NOT NULL DEFAULT 0,
  base_arm_strength real NOT NULL,
  assist_level smallint NOT NULL CHECK (assist_level >= 0),
  arm_strength real NOT NULL,
  seed integer NOT NULL,
  layout jsonb NOT NULL,
  inputs jsonb NOT NULL DEFAULT '[]',
  -- The machine's last saved state (restored after a restart).
  machine jsonb,
  phase text NOT NULL CHECK (phase IN ('resetting', 'playing', 'result', 'ended')),
  -- End of the current window: the reset before play, or the continue window after the result.
  phase_deadline_at timestamptz,
  -- Set while the player is away mid-play: when the claw drops by itself.
  grace_deadline_at timestamptz,
  -- The tick a lapsed grace window dropped the claw at (part of the replay).
  drop_at_tick integer,
  result text CHECK (result IN ('win', 'miss', 'refunded')),
  won_prize_id integer REFERENCES won_prizes (play_history_id),
  started_at timestamptz NOT NULL,
  ended_at timestamptz
);
CREATE UNIQUE INDEX plays_one_open_per_station ON plays (station_id) WHERE phase IN ('resetting', 'playing', 'result');
CREATE INDEX plays_user_idx ON plays (user_id, play_id DESC);

-- Consecutive misses of a player at a station (the assist gauge); a win empties it.
CREATE TABLE assist_gauges (
  user_id integer NOT NULL REFERENCES users (user_id),
  station_id integer NOT NULL REFERENCES stations (station_id),
  misses integer NOT NULL DEFAULT 0 CHECK (misses >= 0),
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, station_id)
);
