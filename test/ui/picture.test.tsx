import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { leadPicture, Picture, PICTURE_LAYOUTS, pictureSources } from '../../src/ui/components/picture';

describe('<Picture>: a stored picture in modern formats at the screen’s size (issue 27)', () => {
  it('offers AVIF then WebP in the layout’s widths, and one JPEG to a browser showing neither', () => {
    const html = renderToStaticMarkup(
      <Picture
        src="/api/images/prize-st-0001.svg"
        alt="うさぎ"
        width={240}
        height={240}
        layout={PICTURE_LAYOUTS.card}
        loading="lazy"
      />,
    );
    const sizes = PICTURE_LAYOUTS.card.sizes;
    expect(html).toBe(
      '<picture>' +
        `<source type="image/avif" srcSet="${['160', '240', '320', '480'].map((w) => `/api/images/prize-st-0001.svg?w=${w}&amp;fm=avif ${w}w`).join(', ')}" sizes="${sizes}"/>` +
        `<source type="image/webp" srcSet="${['160', '240', '320', '480'].map((w) => `/api/images/prize-st-0001.svg?w=${w}&amp;fm=webp ${w}w`).join(', ')}" sizes="${sizes}"/>` +
        '<img src="/api/images/prize-st-0001.svg?w=320&amp;fm=jpg" alt="うさぎ" width="240" height="240" loading="lazy"/>' +
        '</picture>',
    );
  });

  it('a picture that is not the service’s is shown as it is', () => {
    const html = renderToStaticMarkup(
      <Picture src="https://partner.example/a.png" alt="" width={64} height={64} layout={PICTURE_LAYOUTS.card} />,
    );
    expect(html).not.toContain('<picture');
    expect(html).toContain('<img src="https://partner.example/a.png" alt="" width="64" height="64"/>');
  });

  it('a carousel slide’s wide picture is offered from tablets up, in every format, before the narrow one', () => {
    const { sources } = pictureSources('/api/images/carousel-1-pc.svg', PICTURE_LAYOUTS.carousel, '(min-width: 768px)');
    expect(sources.map((s) => [s.media, s.type])).toEqual([
      ['(min-width: 768px)', 'image/avif'],
      ['(min-width: 768px)', 'image/webp'],
      ['(min-width: 768px)', 'image/jpeg'],
    ]);
    const html = renderToStaticMarkup(
      <Picture
        src="/api/images/carousel-1-sp.svg"
        alternate={{ media: '(min-width: 768px)', src: '/api/images/carousel-1-pc.svg' }}
        alt="秋まつり"
        width={1280}
        height={400}
        layout={PICTURE_LAYOUTS.carousel}
      />,
    );
    const order = [
      ...html.matchAll(/<source (media="[^"]*" )?type="([^"]+)" srcSet="\/api\/images\/(carousel-1-\w\w)/g),
    ].map((m) => `${m[3]} ${m[2]}`);
    expect(order).toEqual([
      'carousel-1-pc image/avif',
      'carousel-1-pc image/webp',
      'carousel-1-pc image/jpeg',
      'carousel-1-sp image/avif',
      'carousel-1-sp image/webp',
    ]);
  });

  it('a lead picture’s preload is the same AVIF candidates at the same sizes as its <picture>', () => {
    const lead = leadPicture('/api/images/banner-new-user.svg', PICTURE_LAYOUTS.banner);
    const avif = pictureSources('/api/images/banner-new-user.svg', PICTURE_LAYOUTS.banner).sources[0]!;
    expect(lead).toEqual({
      href: '/api/images/banner-new-user.svg?w=800&fm=avif',
      srcSet: avif.srcSet,
      sizes: avif.sizes,
      type: 'image/avif',
    });
    expect(leadPicture('/api/stations/3/camera/front.jpg', PICTURE_LAYOUTS.banner)).toEqual({
      href: '/api/stations/3/camera/front.jpg',
    });
  });
});
