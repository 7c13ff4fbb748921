/** `items` in slices of at most `size`: one statement each, within every driver's limit on parameters. */
export const slices = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
