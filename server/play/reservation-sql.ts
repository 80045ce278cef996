import { MAINTENANCE_STATION_STATUSES, RESERVING_STATUSES } from '../../src/domain';

import { sqlList } from '../store/sql-list';

/** The domain's reserving statuses (a place in a station's line) as an SQL list: ('reserve', …). */
export const RESERVING_SQL = sqlList(RESERVING_STATUSES);

/** The domain's maintenance station statuses as an SQL list. */
export const MAINTENANCE_SQL = sqlList(MAINTENANCE_STATION_STATUSES);
