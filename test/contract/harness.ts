import type { Container } from 'inversify';
import type { Token } from '../../src/application';
import type { AuthIdentity } from '../../src/domain';

/** A container seen through typed tokens: `client.get(TOKENS.WalletPort)` is a WalletPort. */
export interface AppClient {
  get<T>(token: Token<T>): T;
}

export function typedClient(container: Container): AppClient {
  return { get: <T>(token: Token<T>) => container.get<T>(token) };
}

/**
 * One implementation of the service API under contract: the real adapters talking to the reference
 * server over HTTP, or the in-memory fakes. Every contract test runs against both.
 */
export interface ContractDriver {
  readonly name: string;
  /** A fresh app container (its own session, signed out) whose ports reach this implementation. */
  client(): AppClient;
  /** A new user, signed in on a fresh container. */
  newUser(): Promise<{ identity: AuthIdentity; client: AppClient }>;
  /** Set-up and inspection a test needs that no client call offers (operator actions, time). */
  readonly fixtures: ContractFixtures;
  close(): Promise<void>;
}

/**
 * Operator-side hooks. Each area adds what its contract needs; both drivers implement every hook,
 * the server driver through its store and the fake through its backend.
 */
export interface ContractFixtures {
  /** Station ids of the catalogue, for tests that need a real one. */
  stationIds(): Promise<number[]>;
}

export type DriverFactory = () => Promise<ContractDriver>;
