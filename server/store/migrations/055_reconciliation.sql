-- The money reconciliation (docs/operations.md "Money reconciliation"): one run per Japanese
-- calendar day, kept with its totals side by side and every mismatch it found. The leader runs the
-- day before each morning; an operator may run any day again (the row is replaced).
CREATE TABLE reconciliation_runs (
  day date PRIMARY KEY,
  ran_at timestamptz NOT NULL,
  mismatches integer NOT NULL CHECK (mismatches >= 0),
  report jsonb NOT NULL
);
-- The reconciliation reads a day's purchase credits and delivery fees by reason and time.
CREATE INDEX tc_ledger_reason_time_idx ON tc_ledger (reason, created_at);
CREATE INDEX ticket_ledger_reason_time_idx ON ticket_ledger (reason, created_at);
CREATE INDEX product_settlements_completed_idx ON product_settlements (completed_at) WHERE status = 'completed';
CREATE INDEX delivery_requests_requested_idx ON delivery_requests (requested_at);
