import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { Feature } from '../../application';
import type { CarouselSlide, InformationItem, KujiDrawResult, PrizeItem } from '../../domain';
import type { AlertModalProps } from './alert-modal';
import type { ConfirmModalProps } from './confirm-modal';
import type { DeliveryRequestProps } from '../delivery/delivery-request-modal';
import type { PrizeKindName } from '../delivery/prize-kind-modal';

/** What every modal component receives: its props, how to close it, and how to open another. */
export interface ModalComponentProps<P> {
  readonly props: P;
  readonly close: () => void;
  readonly open: OpenModal;
  /** Opens another modal in this one's place (same depth): a modal that must open two more levels. */
  readonly swap: OpenModal;
}

type Loader<P> = () => Promise<{ default: ComponentType<ModalComponentProps<P>> }>;
export interface ModalDefinition<P> {
  readonly component: LazyExoticComponent<ComponentType<ModalComponentProps<P>>>;
  /** The modal's file, for a host that loads the modal's features first. */
  readonly load: Loader<P>;
  /** The features (use-cases) the modal takes from the container. */
  readonly features: readonly Feature[];
  /** 'alertdialog' for a message that needs an answer (announced at once); 'dialog' otherwise. */
  readonly role: 'dialog' | 'alertdialog';
  /** Phantom: the props type. */
  readonly props?: P;
}
/** One registry line: the props type and the lazily loaded file of a modal. */
const modal = <P = Record<never, never>>(
  load: Loader<P>,
  role: ModalDefinition<P>['role'] = 'dialog',
  features: readonly Feature[] = [],
): ModalDefinition<P> => ({ component: lazy(load), load, role, features });

/**
 * Every modal and dialog (spec §2.5), lazily loaded: adding one is its own file and one line here
 * [R2.5-2]. A dialog that follows a use-case's state (an alert, a reveal) opens through
 * `useStateModal`.
 */
export const MODALS = {
  menuTop: modal(() => import('./menu-top-modal')),
  search: modal<{ readonly keyword?: string }>(() => import('./search-modal')),
  alert: modal<AlertModalProps>(() => import('./alert-modal'), 'alertdialog'),
  confirm: modal<ConfirmModalProps>(() => import('./confirm-modal'), 'alertdialog'),
  config: modal(() => import('./config-modal'), 'dialog', ['money']),
  craneItemList: modal(() => import('./crane-item-list-modal')),
  faq: modal(() => import('./faq-modal')),
  usageRules: modal(() => import('./usage-rules-modal')),
  tcRules: modal(() => import('./tc-rules-modal')),
  legal: modal(() => import('./legal-modal')),
  privacy: modal(() => import('./privacy-modal')),
  shippingCost: modal(() => import('./shipping-cost-modal')),
  profit: modal(() => import('./profit-modal')),
  playMethod: modal(() => import('./play-method-modal')),
  tag: modal(() => import('./tag-modal')),
  news: modal(() => import('./news-modal')),
  newsDetail: modal<{ readonly item: InformationItem }>(() => import('./news-detail-modal')),
  carousel: modal<{ readonly slides: readonly CarouselSlide[] }>(() => import('./carousel-modal')),
  prizeDetail: modal<{ readonly item: PrizeItem; readonly href: string }>(() => import('./prize-detail-modal')),
  titleSearch: modal<{ readonly keyword?: string }>(() => import('./title-search-modal')),
  kujiHistory: modal<{ readonly draws: readonly KujiDrawResult[] }>(() => import('./kuji-history-modal')),
  kujiReveal: modal<{ readonly draw: KujiDrawResult }>(() => import('./kuji-reveal-modal')),
  purchase: modal(() => import('../purchase/purchase-modal'), 'dialog', ['money']),
  tcHistory: modal(() => import('../purchase/tc-history-modal'), 'dialog', ['money']),
  playHistory: modal(() => import('../purchase/play-history-modal'), 'dialog', ['money']),
  playClip: modal<{ readonly playId: number }>(() => import('../clips/play-clip-modal'), 'dialog', ['clips']),
  settingsHistory: modal<{ readonly stationId: number }>(() => import('../play/settings-history-modal'), 'dialog', [
    'play',
  ]),
  prizeBox: modal(() => import('../delivery/prize-box-modal'), 'dialog', ['prizes']),
  deliveryRequest: modal<DeliveryRequestProps>(() => import('../delivery/delivery-request-modal'), 'dialog', [
    'prizes',
  ]),
  deliveryHistory: modal(() => import('../delivery/delivery-history-modal'), 'dialog', ['prizes']),
  deliveryAbout: modal(() => import('../delivery/delivery-about-modal')),
  addressList: modal(() => import('../delivery/address-list-modal'), 'dialog', ['prizes']),
  prizeKind: modal<{ readonly kind: PrizeKindName }>(() => import('../delivery/prize-kind-modal'), 'dialog', [
    'prizes',
  ]),
  accountMail: modal(() => import('../account/account-modal'), 'dialog', ['account']),
  accountDelete: modal(() => import('../account/account-delete-modal'), 'dialog', ['account']),
  profile: modal<{ readonly prompt?: boolean }>(() => import('../account/profile-modal'), 'dialog', ['account']),
  phoneCheck: modal(() => import('../account/phone-check-modal'), 'dialog', ['account']),
  presentCode: modal(() => import('../account/present-code-modal'), 'dialog', ['account']),
  inviteFriend: modal(() => import('../account/invite-modal'), 'dialog', ['account']),
  contact: modal(() => import('../account/contact-modal'), 'dialog', ['support']),
  contactDone: modal<{ readonly contactId: number }>(() => import('../account/contact-done-modal')),
  chatSupport: modal(() => import('../account/chat-modal'), 'dialog', ['support']),
  terms: modal(() => import('../account/terms-modal'), 'alertdialog'),
  kujiDetail: modal<{ readonly kujiName: string; readonly description: string; readonly boxId: number }>(
    () => import('./kuji-detail-modal'),
    'dialog',
    ['kuji'],
  ),
} as const;

export type ModalName = keyof typeof MODALS;
export type ModalPropsOf<K extends ModalName> = NonNullable<(typeof MODALS)[K]['props']>;

/** Opens a modal by name with its props; false when a main and a sub-modal are already open [R2.5-1]. */
export type OpenModal = <K extends ModalName>(
  name: K,
  ...props: Record<never, never> extends ModalPropsOf<K> ? [props?: ModalPropsOf<K>] : [props: ModalPropsOf<K>]
) => boolean;
