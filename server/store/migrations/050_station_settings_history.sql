-- A station's settings history [R11-6] (docs/fair-play.md): every change in force is a version,
-- published with when, what (before → after), why and by whom; each play names the version it ran
-- with; a change asked while a player is in a run waits in stations.pending_settings until it ends.
ALTER TABLE stations ADD COLUMN settings_version integer NOT NULL DEFAULT 0;
ALTER TABLE stations ADD COLUMN pending_settings jsonb;
ALTER TABLE plays ADD COLUMN settings_version integer;

CREATE TABLE station_settings_changes (
  station_id integer NOT NULL REFERENCES stations (station_id),
  version integer NOT NULL,
  -- [{field, before, after}], fields: armStrength, playPrice, prizeName, prizeShape
  changes jsonb NOT NULL,
  reason text NOT NULL,
  -- The operator's login; null: the service itself.
  operator_login text,
  requested_at timestamptz NOT NULL,
  applied_at timestamptz NOT NULL,
  PRIMARY KEY (station_id, version)
);
