import { inject, injectable } from 'inversify';
import { Subject, catchError, lastValueFrom, map, of, startWith, switchMap, type Observable } from 'rxjs';
import { INFORMATION_PAGE_SIZE, isInformationTag, type InformationItem } from '../../domain';
import type { AppConfig } from '../app-config';
import type { InformationPage, PrizeCatalogPort } from '../ports/prize-catalog.port';
import { TOKENS } from '../tokens';
import { StateStore } from './state-store';

export type InformationState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading' }
  /** /information: one page of INFORMATION_PAGE_SIZE (100), newest first [R9-2]. */
  | { readonly kind: 'list'; readonly page: InformationPage }
  /** /information/{tag}: the one item. */
  | { readonly kind: 'detail'; readonly item: InformationItem }
  /** A tag that fails the route's validation rule, or that no published item has [R2.1-5]. */
  | { readonly kind: 'notFound' }
  | { readonly kind: 'error'; readonly error: unknown };

/** Which information page: a page of the list, or one item by its tag. */
export type InformationRequest =
  { readonly kind: 'list'; readonly page: number } | { readonly kind: 'detail'; readonly tag: string };
type Request = InformationRequest;

/** An information page loaded by a server render, sent in the page for the browser to adopt. */
export interface InformationSnapshot {
  readonly request: InformationRequest;
  readonly state: InformationState;
}

const listPage = (page: number): number => (Number.isSafeInteger(page) && page >= 1 ? page : 1);
const requestKey = (r: Request): string => (r.kind === 'list' ? `list ${r.page}` : `detail ${r.tag}`);

/**
 * The information (news) pages of §2.1: the list, paged 100 at a time, and one item's detail by its
 * tag. A newer request cancels an older one still in flight; `state$` never errors. Page-scoped.
 */
@injectable()
export class ReadInformation extends StateStore<InformationState> {
  private readonly requests = new Subject<Request>();

  constructor(
    @inject(TOKENS.PrizeCatalogPort) private readonly catalog: Pick<PrizeCatalogPort, 'information'>,
    @inject(TOKENS.AppConfig) private readonly config: AppConfig,
  ) {
    super({ kind: 'idle' });
    this.own(
      this.requests
        .pipe(
          switchMap((r) => this.read(r)),
          this.untilDisposed(),
        )
        .subscribe((s) => this.setState(s)),
    );
  }

  /** Shows page `page` (1-based) of the information list. */
  openList(page = 1): void {
    this.show({ kind: 'list', page: listPage(page) });
  }

  /** Shows the item whose tag is `tag`; a malformed tag is 'notFound' without asking the service. */
  openDetail(tag: string): void {
    this.show({ kind: 'detail', tag });
  }

  /** Loads a page once without showing it (a server render's data); a failure answers 'error'. */
  async load(request: InformationRequest): Promise<InformationSnapshot> {
    const r: Request = request.kind === 'list' ? { kind: 'list', page: listPage(request.page) } : request;
    return { request: r, state: await lastValueFrom(this.read(r)) };
  }

  /** Shows a page loaded by `load`; opening the same page then asks nothing. */
  adopt(snapshot: InformationSnapshot): void {
    this.adoptState(requestKey(snapshot.request), snapshot.state);
  }

  private show(r: Request): void {
    if (this.takeAdopted(requestKey(r))) return;
    this.requests.next(r);
  }

  private read(r: Request): Observable<InformationState> {
    if (r.kind === 'detail' && !isInformationTag(r.tag)) return of<InformationState>({ kind: 'notFound' });
    const query =
      r.kind === 'list'
        ? { shopId: this.config.shopId, page: r.page, num: INFORMATION_PAGE_SIZE }
        : { shopId: this.config.shopId, page: 1, num: 1, tag: r.tag };
    return this.catalog.information(query).pipe(
      map((page): InformationState => {
        if (r.kind === 'list') return { kind: 'list', page };
        const item = page.list.find((i) => i.tag === r.tag);
        return item ? { kind: 'detail', item } : { kind: 'notFound' };
      }),
      catchError((error: unknown) => of<InformationState>({ kind: 'error', error })),
      startWith<InformationState>({ kind: 'loading' }),
    );
  }
}
