import type { OperatorTokenStorePort } from '../../application/operator';

/** The key the console keeps its session token under. */
export const OPERATOR_TOKEN_KEY = 'onkure.operator.session';

/**
 * The console's session token in the tab's sessionStorage: it survives a reload of the tab, ends with
 * the tab, is never sent by the browser on its own (not a cookie: no CSRF), and is not shared with
 * other tabs. Without storage (private modes that refuse it) the token lives in memory only.
 */
export class SessionStorageOperatorToken implements OperatorTokenStorePort {
  private memory: string | null = null;

  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null) {}

  read(): string | null {
    try {
      return this.storage?.getItem(OPERATOR_TOKEN_KEY) ?? this.memory;
    } catch {
      return this.memory;
    }
  }

  write(token: string): void {
    this.memory = token;
    try {
      this.storage?.setItem(OPERATOR_TOKEN_KEY, token);
    } catch {
      // Kept in memory only.
    }
  }

  clear(): void {
    this.memory = null;
    try {
      this.storage?.removeItem(OPERATOR_TOKEN_KEY);
    } catch {
      // Nothing kept.
    }
  }
}
