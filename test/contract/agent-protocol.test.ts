import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { agentMessageSchema, serverMessageSchema } from '../../src/contract/agent.schema';
import { AGENT_SCHEMA_FILE, agentSchemaText } from '../../scripts/agent-schema';

const doc = readFileSync(new URL('../../docs/agent-protocol.md', import.meta.url), 'utf8');
const published = JSON.parse(readFileSync(AGENT_SCHEMA_FILE, 'utf8')) as {
  agent_to_server: object;
  server_to_agent: object;
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
const fromAgent = ajv.compile(published.agent_to_server);
const fromServer = ajv.compile(published.server_to_agent);
const SERVER_TYPES = new Set(['welcome', 'ping', 'command', 'cameras']);

/** Every ```json block of docs/agent-protocol.md: each is one example frame. */
const examples = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as { type: string });

describe('the agent protocol as a vendor reads it: docs/agent-protocol.md and its JSON Schema', () => {
  it('the published JSON Schema is what the zod source generates (npm run agent:schema)', () => {
    expect(readFileSync(AGENT_SCHEMA_FILE, 'utf8')).toBe(agentSchemaText());
  });

  it('every example frame in the document is valid against the published JSON Schema and the zod source', () => {
    expect(examples.length).toBeGreaterThanOrEqual(10);
    for (const frame of examples) {
      const server = SERVER_TYPES.has(frame.type);
      const check = server ? fromServer : fromAgent;
      expect(check(frame), `${frame.type}: ${JSON.stringify(check.errors)}`).toBe(true);
      expect((server ? serverMessageSchema : agentMessageSchema).safeParse(frame).success, frame.type).toBe(true);
    }
    expect(new Set(examples.map((e) => e.type))).toEqual(
      new Set(['hello', 'welcome', 'ping', 'pong', 'command', 'cameras', 'ack', 'state', 'prize', 'fault']),
    );
  });

  it('the JSON Schema refuses what the server refuses', () => {
    const state = examples.find((e) => e.type === 'state')!;
    const bad = [
      { ...state, claw: 'flying' },
      { ...state, seq: 0 },
      { ...state, station_id: -3 },
      { ...state, sensor: undefined },
      { ...state, type: 'teleport' },
      { ...examples.find((e) => e.type === 'hello')!, key: 'short' },
    ];
    for (const frame of bad) {
      expect(fromAgent(JSON.parse(JSON.stringify(frame)))).toBe(false);
      expect(agentMessageSchema.safeParse(JSON.parse(JSON.stringify(frame))).success).toBe(false);
    }
  });
});
