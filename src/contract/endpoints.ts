/** Paths of the service calls (§7), relative to the configured API base. */
export const ENDPOINTS = {
  topPagePrize: 'contents/top_page_prize',
} as const;

/** Default mount point of the API on the reference server. */
export const DEFAULT_API_PREFIX = '/api';
