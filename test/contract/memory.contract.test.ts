import { describe } from 'vitest';
import { runContracts } from './all-contracts';
import { memoryDriver } from './memory.driver';

describe('service API contract: in-memory fakes', () => runContracts(memoryDriver));
