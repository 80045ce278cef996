import { inject, injectable } from 'inversify';
import { OperatorScreen, type ActionState } from './operator-screen';
import type { OperatorSession } from './operator-session.use-case';
import { OPERATOR_TOKENS } from './operator-tokens';
import type { IssuedStationKeyView, OperatorApiPort, StationKeyView } from './ports/operator-api.port';

export type MachineKeyActionName = 'issue' | 'rotate' | 'revoke';

/**
 * The key an issue or a rotation just answered, while its outcome is shown; null otherwise. The
 * key lives only in the action's outcome: dismissing the outcome (or leaving the screen) forgets it.
 */
export function revealedKey(action: ActionState<MachineKeyActionName>): IssuedStationKeyView | null {
  if (action.status !== 'done' || (action.name !== 'issue' && action.name !== 'rotate')) return null;
  return action.result as IssuedStationKeyView;
}

/**
 * The station agents' keys (right `machines`, admin only; docs/security.md "Station keys"): the
 * list, issuing a key for some stations, rotating one with an overlap, revoking one. The list is
 * read again after each change.
 */
@injectable()
export class OperatorMachineKeys extends OperatorScreen<readonly StationKeyView[], MachineKeyActionName> {
  constructor(
    @inject(OPERATOR_TOKENS.OperatorApiPort)
    private readonly api: Pick<
      OperatorApiPort,
      'stationKeys' | 'issueStationKey' | 'rotateStationKey' | 'revokeStationKey'
    >,
    @inject(OPERATOR_TOKENS.OperatorSession) session: Pick<OperatorSession, 'refused' | 'active'>,
  ) {
    super(session, []);
  }

  refresh(): Promise<void> {
    return this.load(() => this.api.stationKeys());
  }

  /** Issues a key; resolves with it (shown once) or null when refused. */
  issue(name: string, stationIds: readonly number[]): Promise<IssuedStationKeyView | null> {
    return this.changing('issue', () => this.api.issueStationKey(name.trim(), stationIds));
  }

  rotate(keyId: string, overlapMinutes: number): Promise<IssuedStationKeyView | null> {
    return this.changing('rotate', () => this.api.rotateStationKey(keyId, overlapMinutes));
  }

  revoke(keyId: string): Promise<StationKeyView | null> {
    return this.changing('revoke', () => this.api.revokeStationKey(keyId));
  }

  private async changing<R>(name: MachineKeyActionName, run: () => Promise<R>): Promise<R | null> {
    const done = await this.act(name, run);
    if (done !== null) await this.refresh();
    return done;
  }
}
