// The page's API on the loader's global: tapedeck.identify(userId, traits?), .event(name, props?),
// .tag(key, value), .consent(granted), .stop() and .start(). Calls the loader (or the page's own
// stub, common/people.ts PAGE_STUB) queued before the recorder loaded are replayed in order.
// Bounded (common/people.ts): a call over a bound is dropped, with one console warning per
// method whatever the number of calls dropped, and no call ever throws into the page.
import { EVENTS_PER_MINUTE, fieldsOk, isName } from '../../common/people.js';
import { grantConsent } from './consent.js';

type Loose = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Adds a custom event to the recording; `tag` is PEOPLE_TAGS' without its "tapedeck/". */
type Add = (tag: 'identify' | 'event' | 'tag', payload: object) => void;

/** Installs the API on `global` and replays its queue (`q`) in order. */
export function pageApi(global: Loose, add: Add, control: { stop(): void; start(): void }, now = Date.now): void {
  const warned: Loose = {};
  let sent: number[] = [];
  const drop = (what: string) => {
    if (!warned[what]) console.warn((warned[what] = 'tapedeck.' + what + ' call dropped: over its limits'));
  };
  const api: Loose = {
    identify(userId: unknown, traits?: unknown) {
      if (!isName(userId) || !fieldsOk(traits)) return drop('identify');
      add('identify', traits === undefined ? { userId } : { userId, traits });
    },
    event(name: unknown, props?: unknown) {
      if (!isName(name) || !fieldsOk(props)) return drop('event');
      const t = now();
      sent = sent.filter((at) => t - at < 60_000);
      if (sent.length >= EVENTS_PER_MINUTE) return drop('event');
      sent.push(t);
      add('event', props === undefined ? { name } : { name, props });
    },
    tag(key: unknown, value: unknown) {
      if (!isName(key) || !(value === '' || isName(value))) return drop('tag');
      add('tag', { key, value });
    },
    consent: (granted: unknown) => grantConsent(granted === true),
    stop: () => control.stop(),
    start: () => control.start(),
  };
  for (const name in api) {
    const call = api[name];
    global[name] = (...args: unknown[]) => {
      try {
        call(...args);
      } catch {
        // a recording problem is never the page's problem
      }
    };
  }
  const queued: unknown[][] = Array.isArray(global.q) ? global.q : [];
  global.q = [];
  for (const [name, ...args] of queued) if (typeof name === 'string' && Object.hasOwn(api, name)) global[name](...args);
}
