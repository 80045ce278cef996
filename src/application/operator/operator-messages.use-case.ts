import { inject, injectable } from 'inversify';
import { OperatorScreen } from './operator-screen';
import type { OperatorSession } from './operator-session.use-case';
import { OPERATOR_TOKENS } from './operator-tokens';
import type { EmergencyState, OperatorApiPort, OperatorUserView, ServiceMessageCode } from './ports/operator-api.port';

export interface MessagesData {
  /** The emergency maintenance in force (null: none; undefined: not read, e.g. not this role). */
  readonly emergency: EmergencyState | null | undefined;
  /** The user looked up, or null. */
  readonly user: OperatorUserView | null;
}

export type MessagesActionName = 'broadcast' | 'emergencyEnd' | 'lookUp' | 'userMessage' | 'userStatus';

/**
 * Service messages and users: emergency / reloaderror / cancellation to everyone (right
 * `broadcast`) with the number of connections reached, the emergency state and its end, a user
 * looked up by id, one of the codes to that user, suspension and restoring (right `users`).
 */
@injectable()
export class OperatorMessages extends OperatorScreen<MessagesData, MessagesActionName> {
  constructor(
    @inject(OPERATOR_TOKENS.OperatorApiPort) private readonly api: OperatorApiPort,
    @inject(OPERATOR_TOKENS.OperatorSession) session: Pick<OperatorSession, 'refused' | 'active'>,
  ) {
    super(session, { emergency: undefined, user: null });
  }

  /** Reads the emergency state (broadcast right only). */
  readServiceState(): Promise<void> {
    return this.load(async () => ({ ...this.snapshot.data, emergency: await this.api.serviceState() }));
  }

  /** Sends a code to everyone; resolves with the connections reached, or null. */
  async broadcast(code: ServiceMessageCode, info: string): Promise<number | null> {
    const delivered = await this.act('broadcast', () => this.api.broadcast(code, info.trim() || null));
    if (delivered !== null && code === 'emergency') await this.readServiceState();
    return delivered;
  }

  async endEmergency(): Promise<boolean> {
    const done = await this.act('emergencyEnd', async () => {
      await this.api.emergencyEnd();
      return true;
    });
    if (done) await this.readServiceState();
    return done === true;
  }

  async lookUp(userId: number): Promise<OperatorUserView | null> {
    this.setState((s) => ({ ...s, data: { ...s.data, user: null } }));
    const user = await this.act('lookUp', () => this.api.user(userId));
    if (user) this.setState((s) => ({ ...s, data: { ...s.data, user } }));
    return user;
  }

  userMessage(userId: number, code: ServiceMessageCode, info: string): Promise<number | null> {
    return this.act('userMessage', () => this.api.userMessage(userId, code, info.trim() || null));
  }

  /** Suspends (true) or restores (false) the user; the answer is the user as they are now. */
  async setSuspended(userId: number, suspended: boolean): Promise<OperatorUserView | null> {
    const user = await this.act('userStatus', () => this.api.userStatus(userId, suspended));
    if (user) this.setState((s) => ({ ...s, data: { ...s.data, user } }));
    return user;
  }
}
