-- Station play state: which prize setting a station runs, who watches it, who waits in its line,
-- and the weekly VIP prize wins the VIP gate reads. The play loop itself (timers, confirm windows)
-- comes later; these tables hold the state it will drive.

-- A gift-type category per station (0 = none, 1 = gift-wrapped prize for the ギフト tab).
ALTER TABLE stations ADD COLUMN gift_type smallint NOT NULL DEFAULT 0 CHECK (gift_type BETWEEN 0 AND 9);

-- One row per prize set-up of a station; a prize change retires the row and opens a new one, so a
-- reservation made for the old prize can be told apart (status change).
CREATE TABLE station_settings (
  station_setting_id serial PRIMARY KEY,
  station_id integer NOT NULL REFERENCES stations (station_id),
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX station_settings_one_active_idx ON station_settings (station_id) WHERE active;

-- A place in a station's line. reserve_num is not stored: it is the rank among the station's active
-- reservations by (queued_at, play_reserve_id), so a cancellation ahead moves everyone up at once.
CREATE TABLE station_reservations (
  play_reserve_id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (user_id),
  station_id integer NOT NULL REFERENCES stations (station_id),
  station_setting_id integer NOT NULL REFERENCES station_settings (station_setting_id),
  reserve_status text NOT NULL CHECK (reserve_status IN ('reserve', 'playTransition', 'playWaiting', 'cancel', 'change')),
  reserve_token text NOT NULL UNIQUE,
  queued_at timestamptz NOT NULL,
  -- Absolute end of the current step's window (e.g. the confirm window of playTransition); null while waiting.
  deadline_at timestamptz,
  request_flag smallint NOT NULL DEFAULT 0 CHECK (request_flag IN (0, 1)),
  request_type smallint NOT NULL DEFAULT 0 CHECK (request_type >= 0),
  ended_at timestamptz,
  end_reason text CHECK (end_reason IN ('user_cancel', 'maintenance', 'prize_change', 'timeout', 'operator', 'played')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX station_reservations_one_active_per_user ON station_reservations (user_id)
  WHERE reserve_status IN ('reserve', 'playTransition', 'playWaiting');
CREATE INDEX station_reservations_line_idx ON station_reservations (station_id, queued_at, play_reserve_id)
  WHERE reserve_status IN ('reserve', 'playTransition', 'playWaiting');

-- Who watches which station. A user watches one station at a time; visit_count counts open rows.
CREATE TABLE station_visits (
  visit_id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (user_id),
  station_id integer NOT NULL REFERENCES stations (station_id),
  station_setting_id integer NOT NULL REFERENCES station_settings (station_setting_id),
  started_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  ended_at timestamptz
);
CREATE UNIQUE INDEX station_visits_one_open_per_user ON station_visits (user_id) WHERE ended_at IS NULL;
CREATE INDEX station_visits_station_idx ON station_visits (station_id) WHERE ended_at IS NULL;

-- Prizes won at VIP and VIP-exclusive stations; the weekly limit (570) counts rows since Monday 00:00 JST.
-- The play loop writes these when a VIP play wins.
CREATE TABLE vip_prize_wins (
  win_id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (user_id),
  station_id integer NOT NULL REFERENCES stations (station_id),
  won_at timestamptz NOT NULL
);
CREATE INDEX vip_prize_wins_user_idx ON vip_prize_wins (user_id, won_at);
