-- A prize the chute sensor saw that no running play took (docs/agent-protocol.md, "prize"): it fell
-- after its play's result, between plays, or as a second prize of one play. It is out of the
-- machine all the same, so the operator settles it on the console: given to the player of the play
-- the machine named (into their prize box), or put back in the machine. `play_id` is what the agent
-- named (not a reference: an agent's word is checked when the prize is given).
CREATE TABLE IF NOT EXISTS stray_prizes (
  stray_id serial PRIMARY KEY,
  station_id integer NOT NULL REFERENCES stations (station_id),
  play_id integer,
  prize_id integer,
  seen_at timestamptz NOT NULL,
  settled_at timestamptz,
  settled_by text,
  settlement text CHECK (settlement IN ('awarded', 'returned')),
  awarded_prize_id integer,
  CHECK ((settled_at IS NULL) = (settlement IS NULL))
);
CREATE INDEX IF NOT EXISTS stray_prizes_open_idx ON stray_prizes (station_id, stray_id) WHERE settled_at IS NULL;
