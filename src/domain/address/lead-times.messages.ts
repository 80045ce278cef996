/**
 * Preferred delivery time slots an address or a delivery request may carry as lead_times ('' = any
 * time): the slots Japanese carriers offer (the spec leaves the values to the service).
 */
export const LEAD_TIMES = ['', '午前中', '14時〜16時', '16時〜18時', '18時〜20時', '19時〜21時'] as const;
export type LeadTime = (typeof LEAD_TIMES)[number];
