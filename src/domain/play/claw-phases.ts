/**
 * Where a cabinet's claw is in its cycle, as its agent reports it (docs/agent-protocol.md): one list
 * for the protocol's schema and for the console that shows it. `idle`: home, no play; `ready`: a
 * play started, waiting for →. Agents that cannot sense the finer phases (closing, lifting,
 * returning, opening) may go from `dropping` straight to `idle` when the cabinet's cycle is over.
 */
export const AGENT_CLAW_PHASES = [
  'idle',
  'ready',
  'moving_right',
  'wait_back',
  'moving_back',
  'dropping',
  'closing',
  'lifting',
  'returning',
  'opening',
] as const;
export type AgentClawPhase = (typeof AGENT_CLAW_PHASES)[number];
