// The pack worker: bundled on its own (tracker/build.mjs) and started by the recorder from a
// blob: URL, so masking and compressing every batch happens off the page's main thread.
import { pack, type PackReply, type PackRequest } from './pack.js';

const scope = self as unknown as { onmessage: ((event: MessageEvent<PackRequest>) => void) | null; postMessage(message: PackReply): void };
scope.onmessage = ({ data }) => void pack(data.head, data.events).then((body) => scope.postMessage({ id: data.id, body }));
