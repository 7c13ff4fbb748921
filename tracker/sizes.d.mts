export interface TrackerSizes {
  loader: number;
  loaderMinified: number;
  recorder: number;
  total: number;
}
/** Gzip bytes (level 9) of the built loader (as served and as terser-minified) and recorder. */
export function trackerSizes(dir: string): Promise<TrackerSizes>;
