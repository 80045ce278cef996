import { describe } from 'vitest';
import { runContracts } from './all-contracts';
import { serverDriver } from './server.driver';

describe('service API contract: real adapters against the reference server, in-process (inject)', () =>
  runContracts(() => serverDriver('inject')));
