-- Kuji draws with provable fairness (issue 12). A box's last-one prize is not a ticket: it goes
-- with the box's last ticket. When a box opens, its tickets are put in the order a secret seed fixes
-- (kuji_box_tickets) and only the commitment is published; the seed is published when the box ends.
ALTER TABLE kuji_box_prizes ADD COLUMN is_last_one boolean NOT NULL DEFAULT false;
-- The demo stores seeded before this migration name their last-one prize this way.
UPDATE kuji_box_prizes SET is_last_one = true WHERE rank = 'ラストワン賞';
CREATE UNIQUE INDEX kuji_box_prizes_one_last_one ON kuji_box_prizes (box_id) WHERE is_last_one;

CREATE TABLE kuji_box_fairness (
  box_id integer PRIMARY KEY REFERENCES kuji_boxes (box_id),
  -- Secret until revealed_at: never answered before then.
  seed text NOT NULL CHECK (seed ~ '^[0-9a-f]{64}$'),
  commitment text NOT NULL CHECK (commitment ~ '^[0-9a-f]{64}$'),
  -- The tickets when the box opened: [{"rank": …, "quantity": …}] in the box's order.
  stock text NOT NULL,
  opened_at timestamptz NOT NULL,
  revealed_at timestamptz
);

CREATE TABLE kuji_draws (
  draw_id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (user_id),
  kuji_id integer NOT NULL REFERENCES kuji (kuji_id),
  box_id integer NOT NULL REFERENCES kuji_boxes (box_id),
  kuji_play_reserve_id integer NOT NULL REFERENCES kuji_reservations (kuji_play_reserve_id),
  ticket_count integer NOT NULL CHECK (ticket_count > 0),
  price_total integer NOT NULL CHECK (price_total >= 0),
  request_id text NOT NULL,
  last_one boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  UNIQUE (user_id, request_id)
);

CREATE TABLE kuji_box_tickets (
  box_id integer NOT NULL REFERENCES kuji_boxes (box_id),
  position integer NOT NULL CHECK (position >= 0),
  rank text NOT NULL,
  draw_id integer REFERENCES kuji_draws (draw_id),
  PRIMARY KEY (box_id, position)
);
CREATE INDEX kuji_box_tickets_undrawn ON kuji_box_tickets (box_id, position) WHERE draw_id IS NULL;
