import type { Flag } from '../catalogue/prize.entity';

/** What every authenticated request body carries (spec §3) [R3-1]. */
export interface AuthIdentity {
  readonly access_token: string;
  readonly user_id: number;
}

/** A request body with the identity added; identity fields replace any same-named body fields [R3-1]. */
export function withIdentity<B extends object>(identity: AuthIdentity, body: B): B & AuthIdentity {
  return { ...body, user_id: identity.user_id, access_token: identity.access_token };
}

/** Error response: every answer carries error_code and error_info (spec §3) [R3-19]. */
export interface ErrorResponse {
  readonly error_code: number;
  readonly error_info: string;
}

/** App state (spec §3) [R3-20]. */
export interface AppState {
  readonly isVip: boolean;
  readonly shop_id: number;
  /** Base address of the service top page; '' means this origin. */
  readonly topPageBaseUrl: string;
}

/** Invite info (spec §3) [R3-16]. */
export interface InviteInfo {
  readonly invite_ticket: number;
  readonly title: string;
  readonly url: string;
  readonly text: string;
}

/** User settings as sent (spec §3, §7): both flags travel as 1 or 0 [R3-18]. */
export interface SetHideCharacterBody {
  readonly set_hide_character: { readonly character: Flag };
}
export interface SetVolumeBody {
  readonly set_volume: { readonly volume: Flag };
}
