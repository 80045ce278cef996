-- Crane items (spec 3 user data "crane items"): the power-ups a player holds, one row per user and
-- item kind while the count is above 0. POST /user/user_data lists them (docs/api/user.md). Nothing
-- is seeded: the debug user is created on its first login, and a player with no items has none.
CREATE TABLE crane_items (
  user_id integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  item_id integer NOT NULL CHECK (item_id > 0),
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 40),
  count integer NOT NULL CHECK (count > 0),
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, item_id)
);
