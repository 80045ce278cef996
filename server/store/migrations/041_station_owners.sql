-- Which instance runs each station's room (issue 25, docs/deployment.md): written by the instance
-- when it takes the station's lock. The lock decides ownership; this row only says where the owner
-- is reached, so that another instance can forward the station's live feed to it. A row left by a
-- dead instance is overwritten by the next owner. Unused with the embedded store.
CREATE TABLE IF NOT EXISTS station_owners (
  station_id integer PRIMARY KEY REFERENCES stations (station_id) ON DELETE CASCADE,
  instance_url text NOT NULL,
  since timestamptz NOT NULL DEFAULT now()
);
