import { useState } from 'react';
import { Link } from 'react-router';
import { TOKENS, type Row } from '../../application';
import { carouselHref, type CarouselSlide, type InformationItem, type NewArrival } from '../../domain';
import { useInjection } from '../di/container-context';
import { MESSAGES } from '../messages';
import { SLIDE_MEDIA } from '../components/slide-media';
import { useModals } from '../modals/modal-host';
import { STOREFRONT as S } from '../storefront.messages';
import { InformationRowBody } from './information-page';
import { imageLoading } from '../components/image-loading';
import { Picture, PICTURE_LAYOUTS } from '../components/picture';

/** Reports a slide's click (carousel_click with its id, title, type and pc image, R7-12). */
function useCarouselClick() {
  const tracker = useInjection(TOKENS.TrackEvent);
  return (slide: CarouselSlide) =>
    tracker.track('carousel_click', {
      carousel_id: slide.id,
      title: slide.title,
      type_id: slide.type_id,
      pc_img_url: slide.pc_img_url,
    });
}

/** A slide's picture: the narrow image on phones, the wide one from tablet width up (both 1280×400). */
function SlidePicture({ slide, eager }: { slide: CarouselSlide; eager: boolean }) {
  return (
    <Picture
      className="carousel__image"
      src={slide.sp_img_url}
      alternate={{ media: SLIDE_MEDIA.wide, src: slide.pc_img_url }}
      alt={slide.title}
      width={1280}
      height={400}
      layout={PICTURE_LAYOUTS.carousel}
      {...imageLoading(eager)}
    />
  );
}

/**
 * The pick-up carousel (§7 /contents/carousel): one slide at a time with previous / next buttons and
 * a position; no automatic rotation, so nothing moves under a reader. A slide leads where its type
 * says (information, prize search or station) and is reported as carousel_click.
 */
export function Carousel({ row }: { row: Row<CarouselSlide> }) {
  const { target } = useInjection(TOKENS.AppConfig);
  const clicked = useCarouselClick();
  const { open } = useModals();
  const [index, setIndex] = useState(0);
  if (row.kind !== 'loaded' || row.items.length === 0)
    return row.kind === 'loading' ? <div className="carousel carousel--placeholder" aria-hidden="true" /> : null;
  const slides = row.items;
  const current = Math.min(index, slides.length - 1);
  const slide = slides[current]!;
  return (
    <section className="carousel" aria-roledescription="carousel" aria-label={S.carousel} data-testid="carousel">
      <div className="carousel__viewport" aria-live="polite">
        <Link
          key={slide.id}
          className="carousel__slide"
          to={carouselHref(target, slide)}
          onClick={() => clicked(slide)}
          aria-roledescription="slide"
          aria-label={`${S.carouselSlide(current + 1, slides.length)} ${slide.title}`}
        >
          <SlidePicture slide={slide} eager={current === 0} />
        </Link>
      </div>
      {slides.length > 1 ? (
        <div className="carousel__controls">
          <button type="button" className="chip carousel__all" onClick={() => open('carousel', { slides })}>
            {S.seeAll}
          </button>
          <button
            type="button"
            className="carousel__button"
            aria-label={S.carouselPrevious}
            onClick={() => setIndex((current - 1 + slides.length) % slides.length)}
          >
            ‹
          </button>
          <span className="carousel__position">{S.carouselSlide(current + 1, slides.length)}</span>
          <button
            type="button"
            className="carousel__button"
            aria-label={S.carouselNext}
            onClick={() => setIndex((current + 1) % slides.length)}
          >
            ›
          </button>
        </div>
      ) : null}
    </section>
  );
}

/** The side banner: the first 3 slides [R9-2]; beside the carousel at desktop width, a row below it on phones. */
export function SideBanner({ slides }: { slides: readonly CarouselSlide[] }) {
  const { target } = useInjection(TOKENS.AppConfig);
  const clicked = useCarouselClick();
  if (slides.length === 0) return null;
  return (
    <aside className="side-banner" aria-label={S.sideBanner} data-testid="side-banner">
      <ul>
        {slides.map((slide) => (
          <li key={slide.id}>
            <Link to={carouselHref(target, slide)} onClick={() => clicked(slide)}>
              <Picture
                src={slide.sp_img_url}
                alt={slide.title}
                width={1280}
                height={400}
                layout={PICTURE_LAYOUTS.side}
                loading="lazy"
              />
            </Link>
          </li>
        ))}
      </ul>
    </aside>
  );
}

/** The start news flagged for the top page: the newest five, and a link to the whole list. */
export function NewsRow({ row }: { row: Row<InformationItem> }) {
  if (row.kind === 'loaded' && row.items.length === 0) return null;
  return (
    <section className="prize-section news-row" aria-labelledby="news-row-title">
      <div className="prize-section__head">
        <h2 id="news-row-title" className="prize-section__title">
          {S.informationTitle}
        </h2>
        <Link className="prize-section__more" to="/information">
          {S.seeAll}
        </Link>
      </div>
      {row.kind === 'loading' ? (
        <p className="page-status" role="status">
          {MESSAGES.loading}
        </p>
      ) : null}
      {row.kind === 'error' ? <p className="prize-section__empty">{S.rowLoadFailed}</p> : null}
      {row.kind === 'loaded' ? (
        <ul className="information__list">
          {row.items.slice(0, 5).map((item) => (
            <li key={item.id}>
              <Link className="information__row" to={`/information/${item.tag}`}>
                <InformationRowBody item={item} />
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** One new arrival of the prize store (name, release date, picture). */
export function ArrivalCard({ arrival }: { arrival: NewArrival }) {
  return (
    <figure className="arrival-card">
      <Picture src={arrival.img_url} alt="" width={320} height={320} layout={PICTURE_LAYOUTS.card} loading="lazy" />
      <figcaption>
        <span className="arrival-card__name">{arrival.name}</span>
        <span className="arrival-card__date">{S.releasedOn(arrival.release_date.replaceAll('-', '/'))}</span>
      </figcaption>
    </figure>
  );
}

/** The prize store's new arrivals as a sideways row, with a link to the page of all 50. */
export function ArrivalsRow({ row }: { row: Row<NewArrival> }) {
  if (row.kind !== 'loaded' || row.items.length === 0) return null;
  return (
    <section className="prize-section" aria-labelledby="arrivals-row-title">
      <div className="prize-section__head">
        <h2 id="arrivals-row-title" className="prize-section__title">
          {S.newArrivals}
        </h2>
        <Link className="prize-section__more" to="/arrival-items">
          {S.seeAll}
        </Link>
      </div>
      <ul className="arrival-row" tabIndex={0} aria-label={S.newArrivals}>
        {row.items.slice(0, 12).map((arrival) => (
          <li key={`${arrival.name}-${arrival.release_date}`}>
            <ArrivalCard arrival={arrival} />
          </li>
        ))}
      </ul>
    </section>
  );
}
