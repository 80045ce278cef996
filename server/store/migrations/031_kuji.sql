-- Kuji (lottery draws): a kuji has boxes, each box a fixed set of ranked prizes, and a line of
-- players per box. One player at a time holds a box (firstReserved, then confirm while drawing).
CREATE TABLE kuji (
  kuji_id serial PRIMARY KEY,
  shop_id integer NOT NULL REFERENCES shops (shop_id),
  kuji_type smallint NOT NULL DEFAULT 1,
  kuji_name text NOT NULL,
  description text NOT NULL,
  price integer NOT NULL CHECK (price >= 0),
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  sort integer NOT NULL DEFAULT 0
);

CREATE TABLE kuji_images (
  kuji_id integer NOT NULL REFERENCES kuji (kuji_id),
  image_key text NOT NULL REFERENCES images (image_key),
  sort integer NOT NULL DEFAULT 0,
  PRIMARY KEY (kuji_id, image_key)
);

CREATE TABLE kuji_boxes (
  box_id serial PRIMARY KEY,
  kuji_id integer NOT NULL REFERENCES kuji (kuji_id),
  box_no integer NOT NULL,
  box_status text NOT NULL CHECK (box_status IN ('onSale', 'ready', 'endOfSale', 'outOfStock', 'deleted')),
  UNIQUE (kuji_id, box_no)
);

CREATE TABLE kuji_box_prizes (
  box_id integer NOT NULL REFERENCES kuji_boxes (box_id),
  rank text NOT NULL,
  prize_name text NOT NULL,
  image_key text NOT NULL REFERENCES images (image_key),
  quantity integer NOT NULL CHECK (quantity >= 0),
  remaining integer NOT NULL CHECK (remaining >= 0 AND remaining <= quantity),
  sort integer NOT NULL DEFAULT 0,
  PRIMARY KEY (box_id, rank)
);

-- A place in a box's line. reserve_num is derived like a station's. play_at is when the holder's
-- turn (firstReserved) or draw (confirm) began; the remaining time is computed from it.
CREATE TABLE kuji_reservations (
  kuji_play_reserve_id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (user_id),
  kuji_id integer NOT NULL REFERENCES kuji (kuji_id),
  box_id integer NOT NULL REFERENCES kuji_boxes (box_id),
  reserve_status text NOT NULL CHECK (reserve_status IN ('reserve', 'firstReserved', 'confirm', 'cancel', 'end')),
  reserve_token text NOT NULL UNIQUE,
  queued_at timestamptz NOT NULL,
  play_at timestamptz,
  ended_at timestamptz,
  end_reason text CHECK (end_reason IN ('user_cancel', 'timeout', 'box_ended', 'drawn')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX kuji_reservations_one_active_per_user ON kuji_reservations (user_id)
  WHERE reserve_status IN ('reserve', 'firstReserved', 'confirm');
CREATE UNIQUE INDEX kuji_reservations_one_holder_per_box ON kuji_reservations (box_id)
  WHERE reserve_status IN ('firstReserved', 'confirm');
CREATE INDEX kuji_reservations_line_idx ON kuji_reservations (box_id, queued_at, kuji_play_reserve_id)
  WHERE reserve_status IN ('reserve', 'firstReserved', 'confirm');
