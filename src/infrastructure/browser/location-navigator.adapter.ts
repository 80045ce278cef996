import type { NavigatorPort } from '../../application';

/** The browser's location as the NavigatorPort. */
export class LocationNavigator implements NavigatorPort {
  constructor(private readonly location: Pick<Location, 'reload' | 'assign'> = globalThis.location) {}

  reload(): void {
    this.location.reload();
  }

  goTo(url: string): void {
    this.location.assign(url);
  }
}
