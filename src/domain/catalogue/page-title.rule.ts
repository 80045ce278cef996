import { DOMAIN_MESSAGES } from '../messages';

/** Whether a path is under /play (a whole segment, so '/player' is not) [R7-13]. */
function isPlayPath(pathname: string): boolean {
  const path = pathname.split(/[?#]/, 1)[0] ?? '';
  return path.split('/').includes('play');
}

/**
 * The document title [R7-13]: 'prize' ('景品'), plus 'list' ('一覧') only when the path has no /play,
 * then the online-crane-game title tag: '景品一覧 | オンラインクレーンゲーム オンクレ' on list pages,
 * '景品 | オンラインクレーンゲーム オンクレ' on play pages.
 */
export function pageTitle(pathname: string): string {
  const m = DOMAIN_MESSAGES;
  const subject = isPlayPath(pathname) ? m.titlePrize : `${m.titlePrize}${m.titleList}`;
  return `${subject}${m.titleSeparator}${m.titleTag}`;
}
