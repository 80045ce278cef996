import type { Container } from 'inversify';
import type { Token } from '../../src/application';
import type { AuthIdentity, KujiBoxStatus, StationStatus, StationType } from '../../src/domain';

/** A container seen through typed tokens: `client.get(TOKENS.WalletPort)` is a WalletPort. */
export interface AppClient {
  get<T>(token: Token<T>): T;
}

export function typedClient(container: Container): AppClient {
  return { get: <T>(token: Token<T>) => container.get<T>(token) };
}

/**
 * The service API under contract: the real ky adapters against the reference server, in-process
 * (Fastify inject) or over HTTP. Every contract test runs on both transports.
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
 * Operator-side hooks. Each area adds what its contract needs; the driver implements them through
 * the server's store (operator actions no client call offers).
 */
export interface ContractFixtures {
  /** Station ids of the catalogue, for tests that need a real one. */
  stationIds(): Promise<number[]>;
  /** Open stations of one type with prizes in stock, in id order (catalogue, reservation). */
  playableStationIds(type: StationType): Promise<number[]>;
  /** Sets a station's status, as an operator would (e.g. 'maintenance', then back to 'open'). */
  setStationStatus(stationId: number, status: StationStatus): Promise<void>;
  /** Paid TC the user bought now, as the VIP gate reads purchases [R6-3]. */
  /** Free TC through the server's ledger, so a player can pay for plays. */
  grantFreeTc(userId: number, amount: number): Promise<void>;
  creditPurchasedTc(userId: number, amount: number): Promise<void>;
  /** A VIP prize the user won now (the weekly limit, 570) [R6-4]. */
  recordVipWin(userId: number, stationId: number): Promise<void>;
  /** A new, full box on sale of a kuji on sale, so a test starts with an idle line. */
  freshKujiBox(): Promise<{ kuji_id: number; box_id: number }>;
  /** Sets a kuji box's status, as an operator would. */
  setKujiBoxStatus(boxId: number, status: KujiBoxStatus): Promise<void>;
  /** Credits TC of one kind to a user through the ledger (an operator grant). */
  creditTc(userId: number, kind: 'free' | 'toll', amount: number): Promise<void>;
  /** Records a prize the user won; answers its play_history_id. */
  grantPrize(
    userId: number,
    win: { prize_kind: 'crane' | 'kuji' | 'order_made'; product_name: string; kuji_name?: string },
  ): Promise<number>;
  /** Ships a won prize to the user's main address with a tracking number (delivery_status 'shipped'). */
  shipPrize(userId: number, playHistoryId: number, contactNumber: string): Promise<void>;
  /** The player pays a pending settlement on the payment provider's page (the success test card). */
  payAtProvider(paymentUrl: string): Promise<void>;
  /** Suspends a user (users.status 2): every authenticated call answers invaliduser. */
  suspendUser(userId: number): Promise<void>;
}

export type DriverFactory = () => Promise<ContractDriver>;
