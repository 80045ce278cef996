/**
 * Which of a carousel slide's two pictures a screen shows (both 1280×400): the narrow one on
 * phones, the wide one from tablet width up. The slide's <picture> and the server's preload of the
 * top page's first slide use the same queries, so the browser fetches early the picture it shows.
 */
export const SLIDE_MEDIA = { narrow: '(max-width: 767px)', wide: '(min-width: 768px)' } as const;
