-- The server no longer plays a crane itself: every station's machine is driven by its agent over
-- the agent protocol (a real cabinet, or the reference agent's sim driver; docs/agent-protocol.md).
-- A play left under way on the old built-in simulator is taken up after the upgrade like any
-- agent-driven play after a restart: its agent does not name it, so it is refunded exactly once.
ALTER TABLE stations DROP COLUMN machine_driver;
