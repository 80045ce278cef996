import { Link } from 'react-router';
import { TOKENS } from '../../application';
import { carouselHref, type CarouselSlide } from '../../domain';
import { useInjection } from '../di/container-context';
import { STOREFRONT_MODALS as M } from '../storefront.messages';
import type { ModalComponentProps } from './registry';
import { Picture, PICTURE_LAYOUTS } from '../components/picture';

/** Carousel (spec §2.5): every running pick-up at once; a slide leads where its type says (carousel_click). */
export default function CarouselModal({ props }: ModalComponentProps<{ readonly slides: readonly CarouselSlide[] }>) {
  const { target } = useInjection(TOKENS.AppConfig);
  const tracker = useInjection(TOKENS.TrackEvent);
  return (
    <div className="modal__body modal__body--scroll">
      <h2 className="dialog__title">{M.carouselTitle}</h2>
      <ul className="carousel-list">
        {props.slides.map((slide) => (
          <li key={slide.id}>
            {/* The new page replaces the modal's history entry; the host closes the modal there. */}
            <Link
              to={carouselHref(target, slide)}
              replace
              onClick={() =>
                tracker.track('carousel_click', {
                  carousel_id: slide.id,
                  title: slide.title,
                  type_id: slide.type_id,
                  pc_img_url: slide.pc_img_url,
                })
              }
            >
              <Picture
                src={slide.sp_img_url}
                alt={slide.title}
                width={1280}
                height={400}
                layout={PICTURE_LAYOUTS.modal}
                loading="lazy"
              />
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
