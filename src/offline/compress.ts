// gzip through the platform's CompressionStream: the page, the service worker and Node 20 all
// have it, so no compression library is shipped. Streams are driven by hand (no Blob/Response)
// because jsdom's Blob cannot hand its bytes to Node's streams in unit tests.

/** The bytes as a stream of pieces of at most `pieceBytes`, so whoever reads it can take turns with other work. */
export function bytesStream(bytes: Uint8Array, pieceBytes = 64 * 1024): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, (at += pieceBytes)));
    },
  });
}

/** The bytes through the transform, as a stream: the first output can be read before the rest is made. */
function piped(bytes: Uint8Array, transform: GenericTransformStream): ReadableStream<Uint8Array> {
  return bytesStream(bytes).pipeThrough(transform as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);
}

/** Everything a stream gives, as one array. */
export async function readAllBytes(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.byteLength;
  }
  return concatBytes(chunks, length);
}

export function concatBytes(chunks: Uint8Array[], length = chunks.reduce((sum, c) => sum + c.byteLength, 0)): Uint8Array {
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

export function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  return readAllBytes(piped(bytes, new CompressionStream('gzip')));
}

/** The bytes gunzipped as a stream: the first ones can be read before the rest is inflated. */
export function gunzipStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return piped(bytes, new DecompressionStream('gzip'));
}

export function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  return readAllBytes(gunzipStream(bytes));
}
