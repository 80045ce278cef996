import { inject, injectable } from 'inversify';
import { firstValueFrom } from 'rxjs';
import {
  isAddressPresent,
  NOT_ENOUGH_TC_CODE,
  refusalCode,
  refusalText,
  type AddressForm,
  type DeliveryView,
} from '../../domain';
import type { AccountPort } from '../ports/account.port';
import type { ClockPort } from '../ports/clock.port';
import type { DeliveryQuote, PrizeDeliveryPort } from '../ports/prize-delivery.port';
import { TOKENS } from '../tokens';
import type { CurrentUser } from './current-user.use-case';
import { StateStore } from './state-store';

export type DeliveryRequestState =
  | { readonly step: 'loading' }
  | {
      readonly step: 'review';
      readonly addresses: readonly AddressForm[];
      readonly addressId: number | null;
      readonly leadTimes: string;
      readonly quote: DeliveryQuote;
      readonly sending: boolean;
      readonly error: string | null;
      /** The balance does not cover the fee: the way to buy TC is offered [R10-4]. */
      readonly needTc: boolean;
    }
  | { readonly step: 'done'; readonly delivery: DeliveryView; readonly tcAll: number }
  | { readonly step: 'error'; readonly error: string };

/** The address a request ships to by default: the main one, if it is complete [R5-5]. */
const defaultAddress = (list: readonly AddressForm[]): number | null =>
  (list.find((a) => a.isMain && isAddressPresent(toRecordish(a))) ?? list.find((a) => isAddressPresent(toRecordish(a))))
    ?.id ?? null;
const toRecordish = (a: AddressForm) => ({
  zip: a.zip,
  address1: a.address1,
  address2: a.address2,
  address3: a.address3,
});

/**
 * A delivery request (delivery modal: choose the address and time slot, see the fee, confirm,
 * done). The fee shown is the service's quote [R9-1, R5-3]; one request id is made per attempt and
 * kept across resends of that attempt, so a double tap or a retry after a lost answer never
 * charges twice [R10-4]. Too little TC keeps the player on the review with the way to buy TC.
 */
@injectable()
export class DeliveryRequestFlow extends StateStore<DeliveryRequestState> {
  private ids: readonly number[] = [];
  private requestId: string | null = null;
  private seq = 0;

  constructor(
    @inject(TOKENS.PrizeDeliveryPort) private readonly delivery: Pick<PrizeDeliveryPort, 'quote' | 'request'>,
    @inject(TOKENS.AccountPort) private readonly account: Pick<AccountPort, 'addresses'>,
    @inject(TOKENS.ClockPort) private readonly clock: ClockPort,
    @inject(TOKENS.CurrentUser) private readonly currentUser: Pick<CurrentUser, 'reload'>,
  ) {
    super({ step: 'loading' });
  }

  async start(playHistoryIds: readonly number[]): Promise<void> {
    this.ids = [...playHistoryIds];
    this.setState({ step: 'loading' });
    try {
      const [addresses, quote] = await Promise.all([
        firstValueFrom(this.account.addresses()),
        firstValueFrom(this.delivery.quote(this.ids)),
      ]);
      this.setState({
        step: 'review',
        addresses,
        addressId: defaultAddress(addresses),
        leadTimes: addresses.find((a) => a.id === defaultAddress(addresses))?.leadTimes ?? '',
        quote,
        sending: false,
        error: null,
        needTc: !quote.enough,
      });
    } catch (error) {
      this.setState({ step: 'error', error: refusalText(error) });
    }
  }

  chooseAddress(addressId: number): void {
    const review = this.review();
    if (!review || !review.addresses.some((a) => a.id === addressId)) return;
    this.setState({ ...review, addressId, error: null });
  }

  setLeadTimes(leadTimes: string): void {
    const review = this.review();
    if (review) this.setState({ ...review, leadTimes });
  }

  /** The address list changed (one was added in place): the new one is chosen. */
  addressesChanged(list: readonly AddressForm[], chosenId: number): void {
    const review = this.review();
    if (review) this.setState({ ...review, addresses: list, addressId: chosenId, error: null });
  }

  /** Reads the fee again (after buying TC). */
  async requote(): Promise<void> {
    const review = this.review();
    if (!review) return;
    try {
      const quote = await firstValueFrom(this.delivery.quote(this.ids));
      this.setState({ ...review, quote, needTc: !quote.enough, error: null });
    } catch (error) {
      this.setState({ ...review, error: refusalText(error) });
    }
  }

  async confirm(): Promise<void> {
    const review = this.review();
    if (!review || review.sending || review.addressId === null) return;
    this.requestId ??= this.newRequestId();
    this.setState({ ...review, sending: true, error: null });
    try {
      const { delivery, tcAll } = await firstValueFrom(
        this.delivery.request({
          requestId: this.requestId,
          playHistoryIds: this.ids,
          addressId: review.addressId,
          leadTimes: review.leadTimes,
        }),
      );
      this.setState({ step: 'done', delivery, tcAll });
      this.currentUser.reload();
    } catch (error) {
      const needTc = refusalCode(error) === NOT_ENOUGH_TC_CODE;
      // A refusal ends this attempt: the next confirm is a new request.
      if (refusalCode(error) !== null) this.requestId = null;
      this.setState({ ...review, sending: false, error: refusalText(error), needTc: needTc || review.needTc });
    }
  }

  private review(): Extract<DeliveryRequestState, { step: 'review' }> | null {
    return this.snapshot.step === 'review' ? this.snapshot : null;
  }

  private newRequestId(): string {
    this.seq += 1;
    return `dlv-${this.clock.now().toString(36)}-${this.seq}-${Math.random().toString(36).slice(2, 12)}`;
  }
}
