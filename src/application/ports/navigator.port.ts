/** Leaves or reloads the page (the browser's location; a fake in tests). */
export interface NavigatorPort {
  reload(): void;
  goTo(url: string): void;
}
