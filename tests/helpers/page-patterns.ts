import fc from 'fast-check';

// Random page patterns and paths for property tests (common/page-pattern.ts): made of the
// characters that are special somewhere (regular expressions, GLOB, LIKE) and some beyond ASCII.

const CHARS = ['a', 'b', '/', '*', '%', '_', '[', ']', '?', '#', '\\', '.', '^', '$', '(', 'é', 'ß', '😀', '中'];
const text = (maxLength: number) => fc.array(fc.constantFrom(...CHARS), { maxLength }).map((chars) => chars.join(''));

/** A pattern and a path, the path often the pattern with its stars filled in, so that both answers are common. */
export const patternAndPath = fc.oneof(
  fc.tuple(text(20), text(30)),
  fc
    .tuple(text(20), fc.array(text(4), { maxLength: 20 }))
    .map(([pattern, fills]): [string, string] => [pattern, pattern.replace(/\*/g, () => fills.pop() ?? '').split(/[?#]/)[0]]),
);
