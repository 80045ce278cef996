import type { PlayView } from '../../domain';
import { MESSAGES } from '../messages';

/** A play's price as the play screen words it: a ticket, free, or its TC. */
export const priceText = (play: Pick<PlayView, 'currency' | 'price'>): string =>
  play.currency === 'ticket'
    ? MESSAGES.priceTicket
    : play.currency === 'free'
      ? MESSAGES.reserveFree
      : MESSAGES.priceTc(play.price);
