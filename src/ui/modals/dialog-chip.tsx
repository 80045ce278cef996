import type { ReactNode } from 'react';

/** A chip that opens a dialog (遊び方, 設定の変更履歴 on the play screen). */
export function DialogChip({
  testId,
  onOpen,
  children,
}: {
  readonly testId: string;
  readonly onOpen: () => void;
  readonly children: ReactNode;
}) {
  return (
    <button type="button" className="chip" aria-haspopup="dialog" data-testid={testId} onClick={onOpen}>
      {children}
    </button>
  );
}
