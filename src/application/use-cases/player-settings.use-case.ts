import { inject, injectable } from 'inversify';
import type { AccountPort } from '../ports/account.port';
import type { SessionPort } from '../ports/session.port';
import { TOKENS } from '../tokens';
import { StateStore } from './state-store';

export interface PlayerSettingsState {
  readonly sound: boolean;
  readonly hideCharacter: boolean;
}

/**
 * The play screen's switches [R5-1]: sound and the character overlay, shown at once and saved to
 * the account (as 1 or 0) for a signed-in player. One per play screen.
 */
@injectable()
export class PlayerSettings extends StateStore<PlayerSettingsState> {
  constructor(
    @inject(TOKENS.AccountPort) private readonly account: Pick<AccountPort, 'setVolume' | 'setHideCharacter'>,
    @inject(TOKENS.SessionPort) private readonly session: SessionPort,
  ) {
    super({ sound: true, hideCharacter: false });
  }

  /** Sound on or off (sent as 1 or 0) [R5-1]. */
  async setSound(on: boolean): Promise<void> {
    this.setState((s) => ({ ...s, sound: on }));
    if (this.session.current() !== null) await this.firstOrNull(() => this.account.setVolume(on));
  }

  /** Hides or shows the character overlay (sent as 1 or 0) [R5-1]. */
  async setHideCharacter(hidden: boolean): Promise<void> {
    this.setState((s) => ({ ...s, hideCharacter: hidden }));
    if (this.session.current() !== null) await this.firstOrNull(() => this.account.setHideCharacter(hidden));
  }
}
