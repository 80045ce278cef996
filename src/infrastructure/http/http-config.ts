/** How the HTTP adapter reaches the service API (§7). */
export interface HttpConfig {
  /** Absolute or origin-relative base address of every call [R7-1], e.g. '/api' or 'https://api.example/'. */
  readonly apiBase: string;
  /** Value of the Authorization header sent with every call [R7-2]; '' sends none. */
  readonly authorization: string;
  /** Abort a call after this many milliseconds [R7-3]; 0 or undefined means no timeout. */
  readonly timeoutMs?: number;
  /** Wait before the one GET retry, in milliseconds (default 300). */
  readonly retryDelayMs?: number;
  /** fetch to use (tests may pass one); defaults to the global fetch. */
  readonly fetch?: typeof fetch;
}
