-- Prizes out (docs/delivery.md): the prize's type and storage deadline, delivery requests charged
-- through the ledger (idempotent by the client's request id), the operator's cancel with its refund,
-- the weekly free-delivery ticket, and the storage notices already given.
ALTER TABLE won_prizes
  ADD COLUMN prize_type text NOT NULL DEFAULT 'normal' CHECK (prize_type IN ('normal', 'digital', 'direct')),
  ADD COLUMN digital_url text,
  -- The end of the storage period (NULL for digital prizes, which never ship).
  ADD COLUMN keep_until timestamptz,
  ADD COLUMN expired_at timestamptz,
  -- Storage notices given: the smallest "days before" told so far (7, then 1), NULL for none.
  ADD COLUMN storage_notice_days smallint;
UPDATE won_prizes SET keep_until = won_at + interval '30 days';
CREATE INDEX won_prizes_keep_until_idx ON won_prizes (keep_until) WHERE expired_at IS NULL AND keep_until IS NOT NULL;

ALTER TABLE delivery_requests
  ADD COLUMN request_key text,
  ADD COLUMN fee_tc integer NOT NULL DEFAULT 0 CHECK (fee_tc >= 0),
  ADD COLUMN ticket_used boolean NOT NULL DEFAULT false,
  ADD COLUMN auto_requested boolean NOT NULL DEFAULT false,
  ADD COLUMN lead_times text NOT NULL DEFAULT '',
  ADD COLUMN cancel_reason text,
  ADD COLUMN cancelled_at timestamptz,
  ADD COLUMN updated_at timestamptz;
CREATE UNIQUE INDEX delivery_requests_key_idx ON delivery_requests (user_id, request_key) WHERE request_key IS NOT NULL;
CREATE INDEX delivery_requests_status_idx ON delivery_requests (delivery_status, delivery_id);

-- A prize is shipped by one request at most (a cancelled one stays invalid): the index refuses a
-- second request even if a lock were missed. No path re-requested a prize before this migration.
CREATE UNIQUE INDEX delivery_request_items_once_idx ON delivery_request_items (play_history_id);

-- The weekly free-delivery ticket [R10-6]: one row per grant; week_start is Monday 00:00 JST.
CREATE TABLE delivery_tickets (
  ticket_id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  week_start timestamptz NOT NULL,
  granted_at timestamptz NOT NULL,
  used_at timestamptz,
  delivery_id integer REFERENCES delivery_requests (delivery_id),
  UNIQUE (user_id, week_start)
);
-- At most one held.
CREATE UNIQUE INDEX delivery_tickets_held_idx ON delivery_tickets (user_id) WHERE used_at IS NULL;

-- The prize's picture (the station's or the kuji rank's at the time of the win).
ALTER TABLE won_prizes ADD COLUMN image_key text REFERENCES images (image_key);
