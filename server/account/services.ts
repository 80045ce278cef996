import type { FastifyReply } from 'fastify';
import { AccountAuthService } from '../auth/account-auth.service';
import { replyError } from '../http/reply';
import type { ApiDeps } from '../routes/deps';
import { isIdempotencyConflictError, isInsufficientFundsError, Ledger } from '../wallet/ledger';
import { PurchaseService } from '../wallet/purchase.service';
import { isAccountRefusal } from './account-errors';
import { AddressesRepository } from './addresses.repository';
import { PrizesRepository } from './prizes.repository';
import { RewardsService } from './rewards.service';
import { UsersRepository } from './users.repository';
import { VerificationService } from './verification.service';

/** The user/account/wallet services, built once per server from the route dependencies. */
export interface AccountServices {
  readonly users: UsersRepository;
  readonly addresses: AddressesRepository;
  readonly prizes: PrizesRepository;
  readonly ledger: Ledger;
  readonly verification: VerificationService;
  readonly rewards: RewardsService;
  readonly purchases: PurchaseService;
  readonly auth: AccountAuthService;
}

const built = new WeakMap<ApiDeps, AccountServices>();

/** One set of services per ApiDeps (the route modules share them, e.g. the in-memory attempt limiters). */
export function accountServices(deps: ApiDeps): AccountServices {
  const existing = built.get(deps);
  if (existing) return existing;
  const { db, now } = deps;
  const ledger = new Ledger(db, now);
  const addresses = new AddressesRepository(db, now);
  const verification = new VerificationService(db, now);
  const services: AccountServices = {
    users: new UsersRepository(db, now),
    addresses,
    prizes: new PrizesRepository(db, now, addresses),
    ledger,
    verification,
    rewards: new RewardsService(db, now, ledger),
    purchases: new PurchaseService(db, now, ledger, deps.config.target),
    auth: new AccountAuthService(db, now, deps.identity, ledger, verification),
  };
  built.set(deps, services);
  return services;
}

/**
 * Runs a handler's work and turns the account module's typed refusals into answers:
 * AccountRefusal → its status, code and Japanese info; InsufficientFundsError → 402. Anything else
 * is a real fault and goes to the server's error handler (500).
 */
export async function answer<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T | FastifyReply> {
  try {
    return await work();
  } catch (error) {
    if (isAccountRefusal(error)) return replyError(reply, error.status, error.info, error.code);
    if (isInsufficientFundsError(error)) return replyError(reply, 402, error.info, 402);
    if (isIdempotencyConflictError(error)) return replyError(reply, 409, error.info, 409);
    throw error;
  }
}
