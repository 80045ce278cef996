import { useRef } from 'react';
import type { ModalComponentProps } from '../modals/registry';
import { useDialogName } from '../modals/use-dialog-name';
import { DELIVERY as D } from './delivery.messages';

/** About delivery (spec §2.5 delivery: about): the fee rule, the weekly ticket, the storage period, changes. */
export default function DeliveryAboutModal(_: ModalComponentProps<Record<never, never>>) {
  const ref = useRef<HTMLDivElement>(null);
  useDialogName(ref, 'delivery-about-title');
  return (
    <div ref={ref} className="modal__body delivery-about" data-testid="delivery-about">
      <h2 id="delivery-about-title" className="dialog__title">
        {D.aboutTitle}
      </h2>
      {D.about().map((text) => (
        <p key={text}>{text}</p>
      ))}
    </div>
  );
}
