// Page patterns: the one language in which an owner names pages, for a campaign's recorded pages
// (url_include/url_exclude, judged by the tracker and again by ingest), heatmap pages and funnel
// page steps (judged here and, for funnel results, in SQL: server/funnels/match.ts).
//
// A pattern is a path in which `*` stands for any run of characters (`/` too, or none); every
// other character stands for itself, case and all. A query or fragment is not part of a path, so
// a pattern is read up to its first `?` or `#` (new patterns may not have one: patternFlaw). A path
// is judged on its first MAX_PAGE_PATH characters, as ingest keeps it.
//
// Matching never backtracks and no regular expression is built from a pattern: the literal runs
// between the stars are found left to right, each at its first place after the one before (with
// `*` the only wildcard, the leftmost place never loses a match), so a match costs one indexOf per
// run, at most path × pattern character comparisons whatever the pattern.

/** Caps on what an owner saves: every place that takes a pattern refuses one over them (patternFlaw). */
export const MAX_PATTERN_CHARS = 200;
export const MAX_PATTERN_STARS = 10;
/** The longest path judged, and kept by ingest (common/fact-moments.ts pathOf, heatmap click records). */
export const MAX_PAGE_PATH = 300;

/** The part of a pattern that is matched: up to its first `?` or `#`. */
export const patternPath = (pattern: string): string => pattern.split(/[?#]/)[0];

/** A pattern as a test of a path. */
export function pagePattern(pattern: string): (path: string) => boolean {
  const runs = patternPath(pattern).split('*');
  const first = runs[0];
  const last = runs[runs.length - 1];
  return (fullPath) => {
    const path = fullPath.slice(0, MAX_PAGE_PATH);
    if (runs.length === 1) return path === first;
    const end = path.length - last.length;
    if (end < first.length || !path.startsWith(first) || !path.endsWith(last)) return false;
    let at = first.length;
    for (const run of runs.slice(1, -1)) {
      at = path.indexOf(run, at);
      if (at < 0 || (at += run.length) > end) return false;
    }
    return true;
  };
}

/** Whether a path fits a pattern. */
export const pageMatches = (pattern: string, path: string): boolean => pagePattern(pattern)(path);

/** Why a pattern an owner saves is refused, or null. */
export function patternFlaw(pattern: string): string | null {
  if (!/^[/*]/.test(pattern)) return 'A page pattern starts with / (or *)';
  if (pattern.length > MAX_PATTERN_CHARS) return `A page pattern has at most ${MAX_PATTERN_CHARS} characters`;
  if (pattern.split('*').length - 1 > MAX_PATTERN_STARS) return `A page pattern has at most ${MAX_PATTERN_STARS} stars (*)`;
  if (/[?#\s]/.test(pattern)) return 'A page pattern is a path: no query, fragment or spaces';
  return null;
}

/** The first flaw of a list of patterns, with the pattern it is in, or null. */
export function patternsFlaw(patterns: string[]): string | null {
  for (const pattern of patterns) {
    const flaw = patternFlaw(pattern);
    if (flaw) return `${flaw}: ${pattern}`;
  }
  return null;
}

/**
 * A pattern in SQL: the text a path column equals (no star), or is LIKE (PostgreSQL, `\` escaping
 * `%`, `_` and itself) or GLOBs (SQLite, `[…]` holding `[` and `?`), `*` read as any run of characters.
 */
export function patternSql(pattern: string, engine: 'like' | 'glob'): { equals: string } | { like: string } | { glob: string } {
  const path = patternPath(pattern);
  if (!path.includes('*')) return { equals: path };
  if (engine === 'like') return { like: path.replace(/[\\%_]/g, '\\$&').replaceAll('*', '%') };
  return { glob: path.replace(/[[?]/g, '[$&]') };
}
