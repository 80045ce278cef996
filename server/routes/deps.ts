import type { ServerConfig } from '../config';
import type { RouteBuilder } from '../http/route';
import type { Services } from '../services';

/** What every API route module gets: the configuration, the services built once, and the route helper. */
export interface ApiDeps {
  readonly config: ServerConfig;
  readonly services: Services;
  readonly route: RouteBuilder;
}
