/** A path pattern as a regular expression: `*` any characters, the rest as written (heatmap pages, recording rules). */
export const globRegExp = (glob: string) =>
  new RegExp(
    '^' +
      glob
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*') +
      '$',
  );
