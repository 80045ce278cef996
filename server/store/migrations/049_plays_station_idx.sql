-- The console's recording health (docs/clips.md "Console health") reads each station's last plays
-- with their clips: newest first per station, without scanning every play.
CREATE INDEX plays_station_idx ON plays (station_id, play_id DESC);
