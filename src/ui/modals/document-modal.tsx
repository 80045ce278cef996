import { useId, useRef, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import { DOCUMENT_MESSAGES, type DocRow, type DocSection } from './documents.messages';
import type { DocumentModalName } from './document-names';
import { useDialogName } from './use-dialog-name';

export { FOOTER_DOCUMENTS, GUIDE_MENU, type DocumentModalName } from './document-names';

/**
 * Arrow keys stay inside a document: they scroll it, and must not reach a page-level handler
 * underneath (the play screen drives the crane with → and ↑ on the window).
 */
function keepArrowKeys(e: ReactKeyboardEvent): void {
  if (e.key.startsWith('Arrow')) e.stopPropagation();
}

/**
 * The frame of an information modal: the title as an h2 that also names the dialog, and the body
 * in a region that scrolls inside the modal (focusable, so it scrolls by keyboard too).
 */
export function DocumentModal({ name, children }: { name: DocumentModalName; children: ReactNode }) {
  const titleId = useId();
  const ref = useRef<HTMLElement>(null);
  const title = DOCUMENT_MESSAGES.titles[name];
  // The dialog element belongs to the modal host; the title is its accessible name.
  useDialogName(ref, titleId);
  return (
    <article
      ref={ref}
      className="modal__body document-modal"
      data-document={name}
      onKeyDown={keepArrowKeys}
      onKeyUp={keepArrowKeys}
    >
      <h2 id={titleId} className="dialog__title document-modal__title">
        {title}
      </h2>
      <div className="document-modal__scroll" role="region" aria-labelledby={titleId} tabIndex={0}>
        {children}
      </div>
    </article>
  );
}

/** Sections with h3 headings, paragraphs and a list. */
export function DocSections({ sections }: { sections: readonly DocSection[] }) {
  return (
    <>
      {sections.map((section) => (
        <section key={section.heading} className="document-modal__section">
          <h3 className="document-modal__heading">{section.heading}</h3>
          {section.paragraphs?.map((text) => (
            <p key={text} className="document-modal__text">
              {text}
            </p>
          ))}
          {section.items ? <DocList items={section.items} ordered={section.ordered ?? false} /> : null}
        </section>
      ))}
    </>
  );
}

export function DocList({ items, ordered = false }: { items: readonly string[]; ordered?: boolean }) {
  const list = items.map((text) => <li key={text}>{text}</li>);
  return ordered ? <ol className="document-modal__list">{list}</ol> : <ul className="document-modal__list">{list}</ul>;
}

/** A two-column table of label → value, the labels as row headers; column headers when given. */
export function DocTable({
  rows,
  caption,
  labelHeader,
  valueHeader,
}: {
  rows: readonly DocRow[];
  caption?: string;
  labelHeader?: string;
  valueHeader?: string;
}) {
  return (
    <table className="document-modal__table">
      {caption ? <caption>{caption}</caption> : null}
      {labelHeader && valueHeader ? (
        <thead>
          <tr>
            <th scope="col">{labelHeader}</th>
            <th scope="col">{valueHeader}</th>
          </tr>
        </thead>
      ) : null}
      <tbody>
        {rows.map((row) => (
          <tr key={row.label}>
            <th scope="row">{row.label}</th>
            <td>{row.value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
