-- Editorial contents: carousel slides, information (news) and virtual cranes.
CREATE TABLE carousels (
  carousel_id serial PRIMARY KEY,
  shop_id integer NOT NULL REFERENCES shops (shop_id),
  title text NOT NULL,
  -- 1 opens an information page, 2 a prize search, 3 a station
  type_id smallint NOT NULL CHECK (type_id IN (1, 2, 3)),
  link text NOT NULL,
  pc_image_key text NOT NULL REFERENCES images (image_key),
  sp_image_key text NOT NULL REFERENCES images (image_key),
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  sort integer NOT NULL DEFAULT 0
);

CREATE TABLE information (
  information_id serial PRIMARY KEY,
  shop_id integer NOT NULL REFERENCES shops (shop_id),
  tag text NOT NULL UNIQUE,
  category text NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  image_key text REFERENCES images (image_key),
  is_top_page boolean NOT NULL DEFAULT false,
  is_pick_up boolean NOT NULL DEFAULT false,
  published_at timestamptz NOT NULL
);
CREATE INDEX information_shop_idx ON information (shop_id, published_at DESC, information_id DESC);

CREATE TABLE virtual_cranes (
  virtual_crane_id serial PRIMARY KEY,
  name text NOT NULL,
  description text NOT NULL,
  image_key text NOT NULL REFERENCES images (image_key),
  play_price integer NOT NULL CHECK (play_price >= 0),
  released_at timestamptz NOT NULL,
  sort integer NOT NULL DEFAULT 0
);
