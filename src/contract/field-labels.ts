import type { z } from 'zod';

/** Japanese names of input fields, for error_info texts that name the field. */
export const FIELD_LABELS_JA: Readonly<Record<string, string>> = {
  user_id: 'ユーザーID', access_token: 'アクセストークン', id: 'ID', is_main: 'メイン住所',
  first_name: '名', last_name: '姓', zip: '郵便番号', address1: '都道府県', address2: '市区町村・番地', address3: '建物名・部屋番号',
  tel: '電話番号', email: 'メールアドレス', password: 'パスワード', code: '認証コード', nickname: 'ニックネーム',
  sex: '性別', birth: '生年月日', prefectures: '都道府県', play_history_id: '獲得履歴ID', product_id: '商品', pay_method: '支払い方法',
  request_id: 'リクエストID', character: 'キャラクター非表示設定', volume: '音量設定', additional_key: '設定項目', additional_value: '設定値',
  agree_contract: '利用規約への同意', type: '種類', product_settlement_id: '決済ID', name: '名前',
  shop_id: 'ショップ', is_top_page: 'トップページ指定', is_pick_up: 'ピックアップ指定', fes_id: 'フェス', station_id: 'ステーション',
  station_ids: 'ステーション', station_setting_id: 'ステーション設定', character_id: 'キャラクター', keyword: 'キーワード',
  prize: '検索条件', category_id: 'カテゴリ', station_type: '台の種類', designated_type: 'プレイ方法', natia: 'ナティア', vip: 'VIP',
  exclusive: '独占台', gift_type: 'ギフト種別', refine_search: '絞り込み', is_all: 'すべて表示', new: '新着', page: 'ページ',
  num: '件数', limit: '件数', reserve_token: '予約トークン', kuji_id: 'くじ', box_id: 'ボックス',
};

const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;

/**
 * The Japanese error_info for a body its contract schema refuses: the schema's own message when it
 * is Japanese, else one naming the field. The server answers it; the in-memory fakes give the same.
 */
export function japaneseIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'リクエストの内容が正しくありません。';
  if (JAPANESE.test(issue.message)) return issue.message;
  const key = [...issue.path].reverse().find((p) => typeof p === 'string' && FIELD_LABELS_JA[p]);
  const label = typeof key === 'string' ? FIELD_LABELS_JA[key] : undefined;
  return label ? `「${label}」の内容が正しくありません。` : 'リクエストの内容が正しくありません。';
}
