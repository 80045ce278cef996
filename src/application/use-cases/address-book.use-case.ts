import { inject, injectable } from 'inversify';
import { firstValueFrom } from 'rxjs';
import { normalizeZip, refusalText, validateAddressForm, type AddressForm } from '../../domain';
import type { AccountPort, AddressDraft, ZipPlace } from '../ports/account.port';
import type { SessionPort } from '../ports/session.port';
import { TOKENS } from '../tokens';
import { StateStore } from './state-store';

export interface AddressBookState {
  readonly status: 'loading' | 'signIn' | 'ready' | 'error';
  readonly list: readonly AddressForm[];
  readonly busy: boolean;
  /** The service's refusal of the last save or delete. */
  readonly error: string | null;
  /** Field messages of the form as last checked (the domain's validateAddressForm). */
  readonly fieldErrors: Readonly<Partial<Record<keyof AddressForm, string>>>;
}

/**
 * The address modals (list, registration, change, delete check) over the account calls: the form is
 * checked with the domain's rule before it is sent (the same rule and Japanese messages the server
 * answers with), the main address is kept by the service. Scoped to the modal.
 */
@injectable()
export class AddressBook extends StateStore<AddressBookState> {
  constructor(
    @inject(TOKENS.AccountPort)
    private readonly account: Pick<
      AccountPort,
      'addresses' | 'registerAddress' | 'changeAddress' | 'deleteAddress' | 'lookupZip'
    >,
    @inject(TOKENS.SessionPort) private readonly session: Pick<SessionPort, 'current'>,
  ) {
    super({ status: 'loading', list: [], busy: false, error: null, fieldErrors: {} });
  }

  async start(): Promise<void> {
    if (this.session.current() === null) {
      this.setState((s) => ({ ...s, status: 'signIn' }));
      return;
    }
    try {
      const list = await firstValueFrom(this.account.addresses());
      this.setState((s) => ({ ...s, status: 'ready', list }));
    } catch (error) {
      this.setState((s) => ({ ...s, status: 'error', error: refusalText(error) }));
    }
  }

  /** Clears the form's messages (a new form is opened). */
  resetForm(): void {
    this.setState((s) => ({ ...s, error: null, fieldErrors: {} }));
  }

  /** Registers (id 0) or changes an address; answers the saved one, or null when refused. */
  async save(form: AddressForm): Promise<AddressForm | null> {
    if (this.snapshot.busy) return null;
    const checked = validateAddressForm(form);
    if (!checked.valid) {
      this.setState((s) => ({ ...s, fieldErrors: checked.errors, error: null }));
      return null;
    }
    this.setState((s) => ({ ...s, busy: true, error: null, fieldErrors: {} }));
    try {
      const { id, ...draft } = checked.normalized;
      const saved = await firstValueFrom(
        id === 0
          ? this.account.registerAddress(draft satisfies AddressDraft)
          : this.account.changeAddress(checked.normalized),
      );
      this.setState((s) => ({ ...s, busy: false, list: saved.list }));
      return saved.address;
    } catch (error) {
      this.setState((s) => ({ ...s, busy: false, error: refusalText(error) }));
      return null;
    }
  }

  /**
   * The places a postal code names (none when it is not 7 digits, unknown, or the lookup fails).
   * A bound function, so a form may hold it as a stable callback.
   */
  readonly lookupZip = async (zip: string): Promise<readonly ZipPlace[]> => {
    if (normalizeZip(zip) === null) return [];
    try {
      return await firstValueFrom(this.account.lookupZip(zip));
    } catch {
      return [];
    }
  };

  async remove(id: number): Promise<boolean> {
    if (this.snapshot.busy) return false;
    this.setState((s) => ({ ...s, busy: true, error: null }));
    try {
      const list = await firstValueFrom(this.account.deleteAddress(id));
      this.setState((s) => ({ ...s, busy: false, list }));
      return true;
    } catch (error) {
      this.setState((s) => ({ ...s, busy: false, error: refusalText(error) }));
      return false;
    }
  }
}
