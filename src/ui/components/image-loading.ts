/**
 * How a picture loads: a lead picture (in the first screen, preloaded by the server) at once and
 * first, any other when it nears the screen.
 */
export function imageLoading(lead: boolean): { loading: 'eager' | 'lazy'; fetchPriority?: 'high' } {
  return lead ? { loading: 'eager', fetchPriority: 'high' } : { loading: 'lazy' };
}
