import { afterAll, beforeAll, describe } from 'vitest';
import { catalogContract } from './catalog.contract';
import type { ContractDriver, DriverFactory } from './harness';

/** Runs every area's contract against one implementation. Add an area with one line below. */
export function runContracts(makeDriver: DriverFactory): void {
  let driver: ContractDriver;
  beforeAll(async () => {
    driver = await makeDriver();
  }, 60_000);
  afterAll(async () => driver?.close());
  const get = () => driver;

  describe('catalogue', () => catalogContract(get));
}
