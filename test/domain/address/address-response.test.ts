import { describe, expect, it } from 'vitest';
import { addressResponseOf, type AddressRecord } from '../../../src/domain';

const record = (over: Partial<AddressRecord> = {}): AddressRecord => ({
  id: 1,
  is_main: 0,
  first_name: '太郎',
  last_name: '山田',
  zip: '123-4567',
  address1: '東京都',
  address2: '千代田区',
  address3: '1-1',
  tel: '0312345678',
  email: '',
  lead_times: '',
  ...over,
});

describe('address response', () => {
  it('[R3-4] flattens the main address, falls back to the account e-mail, and lists every address', () => {
    const list = [record({ id: 2 }), record({ id: 3, is_main: 1, zip: '765-4321' })];
    const answer = addressResponseOf(list, { email: 'a@example.com', birth: '2000-01-02' });
    expect(answer).toMatchObject({ address_bool: true, zip: '765-4321', email: 'a@example.com', birth: '2000-01-02' });
    expect(answer.all_address).toEqual({ id: 3, birth: '2000-01-02', email: 'a@example.com', list });
  });

  it('[R3-4] with no main address the fields are blank and the id is 0', () => {
    expect(addressResponseOf([record()], { email: null, birth: null })).toEqual({
      address_bool: false,
      first_name: '',
      last_name: '',
      zip: '',
      address1: '',
      address2: '',
      address3: '',
      tel: '',
      email: '',
      birth: '',
      all_address: { id: 0, birth: '', email: '', list: [record()] },
    });
  });
});
