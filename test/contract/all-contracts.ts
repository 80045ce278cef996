import { afterAll, beforeAll, describe } from 'vitest';
import { catalogContract } from './catalog.contract';
import { reservationContract } from './reservation.contract';
import { kujiContract } from './kuji.contract';
import { authContract } from './auth.contract';
import { accountContract } from './account.contract';
import { walletContract } from './wallet.contract';
import { deliveryContract } from './delivery.contract';
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
  describe('reservation', () => reservationContract(get));
  describe('kuji', () => kujiContract(get));
  describe('auth', () => authContract(get));
  describe('account', () => accountContract(get));
  describe('wallet', () => walletContract(get));
  describe('delivery', () => deliveryContract(get));
}
