/**
 * Writes docs/agent-protocol.schema.json, the station agent protocol's messages as JSON Schema,
 * from their zod source (src/contract/agent.schema.ts). `npm run agent:schema`; a test fails when
 * the file in the repository is not what this writes.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { agentProtocolJsonSchema } from '../src/contract/agent.schema';

export const AGENT_SCHEMA_FILE = fileURLToPath(new URL('../docs/agent-protocol.schema.json', import.meta.url));

/** The file's text: the schema, two-space JSON, with a final newline. */
export function agentSchemaText(): string {
  return `${JSON.stringify(agentProtocolJsonSchema(), null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(AGENT_SCHEMA_FILE, agentSchemaText());
  console.log(`wrote ${AGENT_SCHEMA_FILE}`);
}
