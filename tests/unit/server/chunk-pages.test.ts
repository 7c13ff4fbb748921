import { describe, expect, it } from 'vitest';
import { pages } from '../../../server/storage/chunks.js';

const MB = 1024 * 1024;
const chunks = (sizes: number[], seqs = sizes.map((_, i) => i)) => sizes.map((byte_size, i) => ({ seq: seqs[i], byte_size }));

describe('reading a session’s chunks a page at a time', () => {
  it('takes 16 chunks first, so the answer starts at once, then up to 500 a page', () => {
    expect(pages(chunks(Array(1200).fill(300)))).toEqual([
      [0, 15],
      [16, 515],
      [516, 1015],
      [1016, 1199],
    ]);
  });

  it('closes a page before it passes 4 MB stored, and reads a bigger chunk alone', () => {
    expect(pages(chunks([3 * MB, 0.5 * MB, 1 * MB, 9 * MB, 10, ...Array(20).fill(1)]))).toEqual([
      [0, 1],
      [2, 2],
      [3, 3],
      [4, 24],
    ]);
  });

  it('names pages by seq, whatever the numbers are', () => {
    expect(pages(chunks([1, 1, 1], [3, 7, 8]))).toEqual([[3, 8]]);
    expect(pages([])).toEqual([]);
  });
});
