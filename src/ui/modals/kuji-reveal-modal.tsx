import { useId, useRef } from 'react';
import type { KujiDrawResult } from '../../domain';
import { formatThousands } from '../../domain';
import { KUJI as M } from '../kuji/kuji.messages';
import type { ModalComponentProps } from './registry';
import { useDialogName } from './use-dialog-name';

/** A draw's reveal: the tickets one after another, then the last-one prize (closing skips it). */
export default function KujiRevealModal({ props, close }: ModalComponentProps<{ readonly draw: KujiDrawResult }>) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useDialogName(ref, titleId);
  const { draw } = props;
  return (
    <div ref={ref} className="modal__body kuji-reveal" data-testid="kuji-reveal">
      <h2 id={titleId} className="dialog__title">
        {M.revealTitle}
      </h2>
      <ul className="kuji-reveal__list">
        {draw.tickets.map((t, i) => (
          <li
            key={t.position ?? `lo-${i}`}
            className="kuji-reveal__ticket"
            style={{ animationDelay: `${Math.min(i, 10) * 120}ms` }}
          >
            <img src={t.img_url} alt="" width={56} height={56} />
            <strong>{t.rank}</strong>
            <span>{t.prize_name}</span>
          </li>
        ))}
      </ul>
      {draw.last_one ? (
        <p className="kuji-reveal__last-one">
          <strong>{M.revealLastOne}</strong> {draw.last_one.prize_name}
        </p>
      ) : null}
      <p className="panel__note">{M.paid(formatThousands(draw.price_total))}</p>
      <div className="panel__actions">
        <button type="button" className="button" autoFocus onClick={close}>
          {M.revealClose}
        </button>
      </div>
    </div>
  );
}
