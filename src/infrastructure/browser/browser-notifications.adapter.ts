import type { NotificationPort } from '../../application';

/** Browser notifications (the Notification API), shown only where the player permitted them. */
export class BrowserNotifications implements NotificationPort {
  constructor(
    private readonly api: typeof Notification | undefined = typeof Notification === 'undefined'
      ? undefined
      : Notification,
  ) {}

  async requestPermission(): Promise<boolean> {
    if (!this.api) return false;
    if (this.api.permission === 'default') return (await this.api.requestPermission()) === 'granted';
    return this.api.permission === 'granted';
  }

  notify(title: string, body: string): boolean {
    if (!this.api || this.api.permission !== 'granted' || !title) return false;
    new this.api(title, { body, tag: 'onkure-turn' });
    return true;
  }
}
