-- The prize catalogue: shops, characters and their sub-characters, tabs, stations, banners, images.
CREATE TABLE shops (
  shop_id integer PRIMARY KEY,
  shop_name text NOT NULL
);

CREATE TABLE characters (
  character_id serial PRIMARY KEY,
  character_name text NOT NULL UNIQUE,
  slug text NOT NULL UNIQUE,
  sort integer NOT NULL DEFAULT 0
);

CREATE TABLE sub_characters (
  sub_character_id serial PRIMARY KEY,
  character_id integer NOT NULL REFERENCES characters (character_id),
  sub_character_name text NOT NULL,
  slug text NOT NULL,
  sort integer NOT NULL DEFAULT 0,
  UNIQUE (character_id, sub_character_name),
  UNIQUE (character_id, slug)
);

CREATE TABLE tabs (
  tab_id serial PRIMARY KEY,
  tab_name text NOT NULL,
  tab_slug text NOT NULL UNIQUE,
  tab_kind text NOT NULL,
  genre text,
  sort integer NOT NULL DEFAULT 0
);

CREATE TABLE images (
  image_key text PRIMARY KEY,
  content_type text NOT NULL,
  body bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE stations (
  station_id serial PRIMARY KEY,
  station_admin_id text NOT NULL UNIQUE,
  shop_id integer NOT NULL REFERENCES shops (shop_id),
  prize_name text NOT NULL,
  character_id integer NOT NULL REFERENCES characters (character_id),
  sub_character_id integer NOT NULL REFERENCES sub_characters (sub_character_id),
  genre text NOT NULL,
  station_type text NOT NULL CHECK (station_type IN ('normal', 'vip', 'exclusive')),
  designated_type text NOT NULL CHECK (designated_type IN ('normal', 'practice', 'point_ticket')),
  natia boolean NOT NULL DEFAULT false,
  recommend boolean NOT NULL DEFAULT false,
  stock integer NOT NULL DEFAULT 10 CHECK (stock >= 0),
  disclosure smallint NOT NULL DEFAULT 0,
  station_status text NOT NULL DEFAULT 'open',
  play_price integer NOT NULL CHECK (play_price >= 0),
  image_key text NOT NULL REFERENCES images (image_key),
  released_at timestamptz NOT NULL,
  sort integer NOT NULL DEFAULT 0
);
CREATE INDEX stations_shop_idx ON stations (shop_id, sort);

CREATE TABLE campaign_banners (
  banner_id serial PRIMARY KEY,
  shop_id integer NOT NULL REFERENCES shops (shop_id),
  title text NOT NULL,
  image_key text NOT NULL REFERENCES images (image_key),
  placement text NOT NULL CHECK (placement IN ('campaign', 'new_user', 'fes')),
  sort integer NOT NULL DEFAULT 0
);

CREATE TABLE fes (
  fes_id serial PRIMARY KEY,
  shop_id integer NOT NULL REFERENCES shops (shop_id),
  title text NOT NULL,
  image_key text NOT NULL REFERENCES images (image_key),
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL
);

CREATE TABLE fes_stations (
  fes_id integer NOT NULL REFERENCES fes (fes_id),
  station_id integer NOT NULL REFERENCES stations (station_id),
  PRIMARY KEY (fes_id, station_id)
);
