import { firstValueFrom, type Observable } from 'rxjs';
import { refusalText, type FieldCheck } from '../../domain';
import { StateStore } from './state-store';

/** A form's state: sending, the service's refusal, one message per field, and what a success answered. */
export interface FormState<F extends string, D> {
  readonly busy: boolean;
  /** The service's Japanese refusal of the last send (shown above the button). */
  readonly error: string | null;
  /** The client's checks, shown beside each field; nothing is sent while any fails. */
  readonly fieldErrors: Readonly<Partial<Record<F, string>>>;
  /** The last success's answer; null until then. */
  readonly done: D | null;
}

export const initialForm = <F extends string, D>(): FormState<F, D> => ({
  busy: false,
  error: null,
  fieldErrors: {} as Partial<Record<F, string>>,
  done: null,
});

/**
 * The base of a form use-case (sign-up, password, profile, phone check, present code, contact …):
 * each field is checked with the domain's rule — the same rule and Japanese words the service
 * answers with — and nothing is sent while a check fails; one send at a time; a refusal keeps what
 * the player typed. Extra state (a step, loaded data) rides along in `X`.
 */
export abstract class FormStore<F extends string, D, X extends object = Record<never, never>> extends StateStore<
  FormState<F, D> & X
> {
  protected constructor(extra: X) {
    super({ ...initialForm<F, D>(), ...extra });
  }

  /** Clears the messages (the player edits again or reopens the form). */
  clearMessages(): void {
    this.setState((s) => ({ ...s, error: null, fieldErrors: {} }));
  }

  /**
   * Checks `fields`; when all pass, sends with their normalised values and keeps the answer in
   * `done`. Answers the answer, or null when a check failed, the service refused or a send is running.
   */
  protected async submit<R extends D>(
    fields: Readonly<Partial<Record<F, FieldCheck>>>,
    send: (values: Readonly<Partial<Record<F, string>>>) => Observable<R>,
  ): Promise<R | null> {
    if (this.snapshot.busy) return null;
    const fieldErrors: Partial<Record<F, string>> = {};
    const values: Partial<Record<F, string>> = {};
    for (const [field, check] of Object.entries(fields) as [F, FieldCheck][]) {
      if (check.ok) values[field] = check.value;
      else fieldErrors[field] = check.message;
    }
    if (Object.keys(fieldErrors).length > 0) {
      this.setState((s) => ({ ...s, fieldErrors, error: null }));
      return null;
    }
    this.setState((s) => ({ ...s, busy: true, error: null, fieldErrors: {} }));
    try {
      const answer = await firstValueFrom(send(values).pipe(this.untilDisposed()));
      this.setState((s) => ({ ...s, busy: false, done: answer }));
      return answer;
    } catch (error) {
      this.setState((s) => ({ ...s, busy: false, error: refusalText(error) }));
      return null;
    }
  }
}
