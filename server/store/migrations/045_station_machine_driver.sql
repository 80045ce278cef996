-- Who drives a station's machine (docs/agent-protocol.md): the server's built-in simulator, or the
-- station's agent over the agent protocol (a real cabinet, or the reference agent's sim driver).
ALTER TABLE stations ADD COLUMN machine_driver text NOT NULL DEFAULT 'builtin'
  CHECK (machine_driver IN ('builtin', 'agent'));
-- An operator's emergency stop holds the station out of service until the operator resumes it,
-- across restarts and instances.
ALTER TABLE stations ADD COLUMN emergency_stopped boolean NOT NULL DEFAULT false;
