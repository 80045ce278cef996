import type { Flag } from '../catalogue/prize.entity';

/**
 * A saved shipping address as the service sends it (spec §3 "Address record") [R3-3].
 * address1 is the prefecture (都道府県), address2 the city, ward, town or village (市区町村),
 * address3 the block number and building (番地・建物名・部屋番号). lead_times is the preferred
 * delivery time slot as the service names it ('' = any time).
 */
export interface AddressRecord {
  readonly id: number;
  readonly is_main: Flag;
  readonly first_name: string;
  readonly last_name: string;
  readonly zip: string;
  readonly address1: string;
  readonly address2: string;
  readonly address3: string;
  readonly tel: string;
  readonly email: string;
  readonly lead_times: string;
}

/** The same address in the client-side form (camelCase where the spec renames it) [R3-3]. */
export interface AddressForm {
  readonly id: number;
  readonly isMain: boolean;
  readonly firstName: string;
  readonly lastName: string;
  readonly zip: string;
  readonly address1: string;
  readonly address2: string;
  readonly address3: string;
  readonly tel: string;
  readonly email: string;
  readonly leadTimes: string;
}

/** The main address's fields the address response repeats at its top level. */
type AddressResponseFields = Pick<
  AddressRecord,
  'first_name' | 'last_name' | 'zip' | 'address1' | 'address2' | 'address3' | 'tel' | 'email'
>;

/** Address response data (answer of POST /user/get_address, spec §3) [R3-4]. */
export interface AddressResponse extends AddressResponseFields {
  readonly address_bool: boolean;
  readonly birth: string;
  readonly all_address: {
    readonly id: number;
    readonly birth: string;
    readonly email: string;
    readonly list: readonly AddressRecord[];
  };
}

/** Wire record → form [R3-3]. */
export function addressToForm(record: AddressRecord): AddressForm {
  return {
    id: record.id,
    isMain: record.is_main === 1,
    firstName: record.first_name,
    lastName: record.last_name,
    zip: record.zip,
    address1: record.address1,
    address2: record.address2,
    address3: record.address3,
    tel: record.tel,
    email: record.email,
    leadTimes: record.lead_times,
  };
}

/** Form → wire record [R3-3]. */
export function addressFromForm(form: AddressForm): AddressRecord {
  return {
    id: form.id,
    is_main: form.isMain ? 1 : 0,
    first_name: form.firstName,
    last_name: form.lastName,
    zip: form.zip,
    address1: form.address1,
    address2: form.address2,
    address3: form.address3,
    tel: form.tel,
    email: form.email,
    lead_times: form.leadTimes,
  };
}

/**
 * An address counts as present only when zip, address1, address2 and address3 are all set
 * (non-blank) [R5-5].
 */
export function isAddressPresent(
  address: Pick<AddressRecord, 'zip' | 'address1' | 'address2' | 'address3'> | null | undefined,
): boolean {
  if (!address) return false;
  return [address.zip, address.address1, address.address2, address.address3].every(
    (v) => typeof v === 'string' && v.trim() !== '',
  );
}

/**
 * The address response data (answer of POST /user/get_address) [R3-4]: the main address
 * flattened (blank fields when there is none; its e-mail falls back to the account's), the
 * account's birth date ('' when not registered), and every address as listed.
 */
export function addressResponseOf(
  list: readonly AddressRecord[],
  account: { readonly email?: string | null; readonly birth?: string | null },
): AddressResponse {
  const main = list.find((a) => a.is_main === 1) ?? null;
  return {
    address_bool: isAddressPresent(main),
    first_name: main?.first_name ?? '',
    last_name: main?.last_name ?? '',
    zip: main?.zip ?? '',
    address1: main?.address1 ?? '',
    address2: main?.address2 ?? '',
    address3: main?.address3 ?? '',
    tel: main?.tel ?? '',
    email: main?.email || account.email || '',
    birth: account.birth ?? '',
    all_address: { id: main?.id ?? 0, birth: account.birth ?? '', email: account.email ?? '', list },
  };
}
