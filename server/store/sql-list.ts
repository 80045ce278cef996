/** A list of the domain's constant words as an SQL list: ('reserve', 'confirm'). Never for user input. */
export const sqlList = (values: readonly string[]): string =>
  `(${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')})`;
