/** The public address of a stored image under the API prefix (served by the images route). */
export const imageUrl = (apiPrefix: string) => (key: string) => `${apiPrefix}/images/${key}.svg`;
