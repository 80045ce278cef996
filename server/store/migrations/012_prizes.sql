-- Won prizes (one row per win: its id is the play_history_id the client names) and delivery
-- requests with their delivery_status (spec 4.5 groups them into before / after / invalid).
CREATE TABLE won_prizes (
  play_history_id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  station_id integer REFERENCES stations (station_id),
  prize_kind text NOT NULL CHECK (prize_kind IN ('crane', 'kuji', 'order_made', 'virtual')),
  product_name text NOT NULL CHECK (char_length(product_name) BETWEEN 1 AND 200),
  kuji_name text,
  prize_count integer NOT NULL DEFAULT 1 CHECK (prize_count > 0),
  add_delivery_days integer NOT NULL DEFAULT 0 CHECK (add_delivery_days >= 0),
  is_reservation_delivery boolean NOT NULL DEFAULT false,
  won_at timestamptz NOT NULL
);
CREATE INDEX won_prizes_user_idx ON won_prizes (user_id, won_at);

CREATE TABLE delivery_requests (
  delivery_id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  delivery_status text NOT NULL CHECK (delivery_status IN ('requested', 'preparing', 'shipped', 'delivered', 'cancelled', 'returned')),
  -- The address is copied at request time so a later edit or delete does not move a parcel.
  first_name text NOT NULL,
  last_name text NOT NULL,
  zip text NOT NULL,
  address1 text NOT NULL,
  address2 text NOT NULL,
  address3 text NOT NULL,
  tel text NOT NULL,
  email text,
  prize_contact_number text,
  prize_shipmented_at timestamptz,
  requested_at timestamptz NOT NULL
);
CREATE INDEX delivery_requests_user_idx ON delivery_requests (user_id);

CREATE TABLE delivery_request_items (
  delivery_id integer NOT NULL REFERENCES delivery_requests (delivery_id) ON DELETE CASCADE,
  play_history_id integer NOT NULL REFERENCES won_prizes (play_history_id),
  PRIMARY KEY (delivery_id, play_history_id)
);
CREATE INDEX delivery_request_items_prize_idx ON delivery_request_items (play_history_id);
