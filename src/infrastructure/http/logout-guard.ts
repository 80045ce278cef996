/** Name of the cookie another tab or the server sets when the user logs out. */
export const LOGOUT_COOKIE = 'onkure_logout';

/** Decides before each call whether requests are blocked because the user logged out [R6-9]. */
export interface LogoutGuard {
  isLoggedOut(): boolean;
}

/** Reads `document.cookie` (or any cookie string) for the logout cookie. */
export class CookieLogoutGuard implements LogoutGuard {
  constructor(
    private readonly readCookies: () => string,
    private readonly name = LOGOUT_COOKIE,
  ) {}

  isLoggedOut(): boolean {
    return this.readCookies()
      .split(';')
      .some((part) => {
        const [key, value] = part.trim().split('=');
        return key === this.name && value !== undefined && value !== '' && value !== '0';
      });
  }
}

/** Never blocks: non-web targets have no logout cookie [R6-9 applies to web only]. */
export const NEVER_LOGGED_OUT: LogoutGuard = { isLoggedOut: () => false };
