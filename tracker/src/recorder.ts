// The recorder bundle (/static/recorder.js): rrweb's record-only build, masking everything a
// visitor types, batching into numbered gzip batches for ingest. It never throws into the page.
import { record } from '@rrweb/record';
import { note, type Batch } from './batch.js';
import {
  BATCH_BYTES,
  DEAD_CLICK_MS,
  FLUSH_EVENTS,
  FLUSH_TICKS,
  LIVE_FOLLOW_MS,
  LIVE_HEADER,
  MUTATION_BUDGET,
  SESSION_IDLE_MS,
  TICK_MS,
  UNLOAD_BATCH_BYTES,
} from '../../common/limits.js';
import { maskJson, packNow } from './pack.js';
import { createPacker } from './packer.js';
import { maskEvent, maskInputOptions, maskPage, mutationCount, optedOut } from './privacy.js';
import { sessionInfo } from './session-info.js';
import { pageRecorded, sampled, type TrackerRules } from '../../common/recording-rules.js';
import { recordRules, textHidden } from './rules.js';
import { consentAnswer, onConsent } from './consent.js';
import { exposeConsent } from './consent-global.js';
import { Sender } from './sender.js';
import { freshSession, resumeSession, type SessionState } from './session.js';
import { STASH_KEY, STATE_KEY, storage } from './tab-storage.js';
import { splitEvents } from './split.js';
import { add, capture } from './capture.js';
import { pageApi } from './page-api.js';
import { heat } from './heat.js';
import { plainClick } from './field-click.js';

/** The pack worker's bundled source: tracker/build.mjs builds tracker/src/pack-worker.ts first. */
declare const PACK_WORKER_SOURCE: string | undefined;

interface Settings {
  campaignId: string;
  baseUrl: string;
  flush?: () => void;
  stop?: () => void;
  /** Set as the recorder begins: a second copy of it on the page starts nothing. */
  started?: 1;
  /** The page's API (page-api.ts) and the calls the loader queued before it. */
  [method: string]: unknown;
  consent?: (granted: unknown) => void;
}

const w = window as Window & { tapedeck?: Settings };
// The page's own fetch, before capture() wraps it: ingest's answers are not the site's requests.
const send = fetch;

const byteLength = (text: string) => new Blob([text]).size;

/** Runs a callback of ours so that nothing it does can surface as an error in the host page. */
const safe =
  <A extends unknown[]>(run: (...args: A) => void) =>
  (...args: A): void => {
    try {
      run(...args);
    } catch {
      // a recording problem is never the page's problem
    }
  };

function start(settings: Settings, url: string, rules: TrackerRules): void {
  let session: SessionState = resumeSession(storage(STATE_KEY), Date.now());
  let buffer: string[] = [];
  let bytes = 0;
  let second = 0;
  let changes = 0;
  let stopRecording: (() => void) | undefined;
  let timer = 0;
  // The site's tapedeck.stop() (until its start()); ended: ingest or a budget stopped the tracker for good.
  let siteStopped = 0;
  let ended = 0;
  // The visitor's consent: true where the campaign does not ask; undefined until the site says.
  let given = rules.consent ? consentAnswer() : true;
  // Before consent, with a memory buffer: events since the last two full snapshots, never sent unless given.
  let held: string[][] | undefined;
  const masking = recordRules(rules);
  const strict = rules.privacy === 'strict';
  // Until when someone watches this session live (a batch leaves every tick), else every FLUSH_TICKS ticks.
  let live = 0;
  let ticks = 0;
  // When the last click was, while it still waits for a judgement: an event more than its second
  // later judges it at ingest (common/session-facts.ts); leaving the page before that does too.
  let clickedAt = 0;

  const save = () => storage(STATE_KEY, JSON.stringify(session));
  if (session.off || !masking) return;
  // Outside the sample, a session is not recorded at all (ingest decides the same by its id); kept
  // for the tab, so its next pages decide the same.
  if (!sampled(session.id, rules.sample)) return void ((session.last = Date.now()), save());
  // Started before recording, so the first full snapshot is compressed off the main thread.
  const packer = createPacker(typeof PACK_WORKER_SOURCE === 'string' ? PACK_WORKER_SOURCE : undefined);
  const sender = new Sender({
    async post(body, keepalive) {
      try {
        const response = await send(url + (rules.consent ? '?consent=1' : ''), {
          method: 'POST',
          body,
          keepalive,
          credentials: 'omit',
          headers: { 'content-type': 'text/plain' },
        });
        // 202: stored, but the campaign does not want console messages (none for the rest of the session).
        if (response.status === 202) session.quiet = 1;
        // A viewer is following the session live: send on every tick for a while.
        if (response.headers.has(LIVE_HEADER)) live = Date.now() + LIVE_FOLLOW_MS;
        return { status: response.status, retryAfter: Number(response.headers.get('retry-after')) || 0 };
      } catch {
        return { status: 0 };
      }
    },
    pack: (batch) => packer.pack({ sessionId: batch.sessionId, seq: batch.seq, info: batch.info }, batch.events),
    packNow: (batch) => packNow(batch, batch.events),
    later: (run, ms) => setTimeout(safe(run), ms),
    onStop(_reason, refused) {
      halt();
      // The tab's next pages need not ask again until this session would have ended anyway.
      if (refused) {
        session.off = 1;
        save();
      }
    },
    onDelivered(batch) {
      if (batch.info && batch.sessionId === session.id && !session.sent) {
        session.sent = 1;
        save();
      }
    },
  });

  function flush(maxBytes = BATCH_BYTES): void {
    if (sender.queue.dropped) {
      buffer.push(note({ dropped: sender.queue.dropped }));
      sender.queue.dropped = 0;
    }
    if (!buffer.length) return;
    for (const events of splitEvents(buffer, maxBytes, maxBytes === BATCH_BYTES ? undefined : byteLength)) {
      const batch: Batch = { sessionId: session.id, seq: session.seq++, events, bytes: events.reduce((n, e) => n + e.length, 0) };
      if (!session.sent) batch.info = sessionInfo(rules);
      sender.add(batch);
    }
    buffer = [];
    bytes = 0;
    save();
  }

  /** Recording stops for now (a page not recorded, consent not given); what was held is dropped. */
  function pause(): void {
    stopRecording?.();
    stopRecording = undefined;
    held = undefined;
  }

  /** Records while the page and the consent allow it: starting (with a full snapshot) or stopping as they change. */
  function follow(): void {
    const holding = given === undefined;
    const allowed = !siteStopped && !ended && pageRecorded(location.pathname, rules) && given !== false && (!holding || !!rules.buffer);
    if (!allowed || (held && !holding)) pause();
    if (!allowed || stopRecording) return;
    if (holding) held = [[]];
    const checkoutEveryNms = holding ? (rules.buffer as number) * 1000 : undefined;
    stopRecording = record({ emit, maskInputOptions, ...masking, slimDOMOptions: 'all', sampling: { input: 'last', scroll: 150 }, checkoutEveryNms });
  }

  function halt(reason?: string): void {
    ended = 1;
    pause();
    clearInterval(timer);
    onConsent(() => {}); // never again on this page
    if (reason) {
      buffer.push(note({ stopped: reason }));
      flush();
    }
  }

  function emit(event: { type: number; data: unknown; timestamp: number }, checkout?: boolean): void {
    try {
      // The page's address here; the rest masked on its way out (maskJson, in the pack worker).
      maskPage(event, rules.query);
      if (strict) maskEvent(event, strict);
      if (event.timestamp - clickedAt > DEAD_CLICK_MS) clickedAt = 0;
      if (plainClick(event)) clickedAt = event.timestamp;
      if (held) {
        // A new full snapshot (rrweb's checkout, its Meta event first) starts a segment; the one before it is kept.
        if (checkout && event.type === 4) held = [held[held.length - 1], []];
        return void held[held.length - 1].push(JSON.stringify(event));
      }
      const now = Date.now();
      if (now - session.last > SESSION_IDLE_MS) {
        // Back after 30 idle minutes: a new session, which starts with a full snapshot.
        flush();
        session = freshSession(now);
        setTimeout(safe(() => record.takeFullSnapshot(true)));
      }
      session.last = now;
      const json = JSON.stringify(event);
      buffer.push(json);
      bytes += json.length;
      const t = Math.floor(now / 1000);
      if (t !== second) {
        second = t;
        changes = 0;
      }
      changes += mutationCount(event);
      if (changes > MUTATION_BUDGET) return halt(`mutation budget: over ${MUTATION_BUDGET} DOM changes in one second`);
      if (buffer.length >= FLUSH_EVENTS || bytes >= BATCH_BYTES) flush();
    } catch {
      // a recording problem must never surface in the host page
    }
  }

  // Batches the previous page of this tab could not send while it unloaded.
  try {
    (JSON.parse(storage(STASH_KEY) || '[]') as Batch[]).forEach(({ sessionId, seq, info, events, bytes }) =>
      sender.add({ sessionId, seq, info, events, bytes }),
    );
  } catch {
    // unreadable leftovers are not worth breaking the page over
  }
  storage(STASH_KEY, null);

  onConsent((granted) => {
    if (granted === given) return;
    // Yes: what was held in memory goes first, then recording goes on. No: it is dropped.
    const kept = granted && held ? held.flat() : [];
    given = granted;
    pause();
    buffer.push(...kept);
    follow();
  });
  follow();
  capture(() => !session.quiet);
  heat(add, textHidden(rules, masking.blockSelector));
  // Each tick also follows the visitor across pages of a single-page app.
  timer = setInterval(
    safe(() => (follow(), (Date.now() < live || ++ticks % FLUSH_TICKS < 1) && flush())),
    TICK_MS,
  ) as unknown as number;

  /** The page goes away (hidden or unloaded): a moment that judges the last click, if it waits; never a new session. */
  const hide = () => {
    if (clickedAt && Date.now() - session.last <= SESSION_IDLE_MS) add('hidden', {});
    clickedAt = 0;
  };
  addEventListener(
    'visibilitychange',
    safe(() => document.visibilityState === 'hidden' && (hide(), flush())),
  );
  addEventListener(
    'pagehide',
    safe(() => {
      hide();
      flush(UNLOAD_BATCH_BYTES);
      const rest = sender.unload(byteLength);
      // Stashed masked, and without the bodies being made (the next page makes them again).
      const stash = rest.map(({ sessionId, seq, info, events, bytes }) => ({ sessionId, seq, info, events: events.map(maskJson), bytes }));
      if (stash.length) storage(STASH_KEY, JSON.stringify(stash));
      save();
    }),
  );
  // Back from the back/forward cache: the queue is still here, so the stash is not needed.
  addEventListener('pageshow', (event) => event.persisted && storage(STASH_KEY, null));
  settings.flush = safe(() => flush());
  const stopBySite = () => {
    siteStopped = 1;
    if (!stopRecording) return;
    pause();
    buffer.push(note({ stopped: 'stopped by the site' }));
    flush();
  };
  // Started again with a new full snapshot (follow), unless ingest ended the tracker.
  pageApi(settings, add, { stop: stopBySite, start: () => ((siteStopped = 0), follow()) });
}

/**
 * The campaign's recording rules first (GET on the ingest address: the same origin and date
 * checks as a batch), then recording by them. Nothing is recorded when they cannot be read.
 */
async function begin(settings: Settings): Promise<void> {
  // A tab whose session ingest refused does not ask again until that session would have ended.
  if (resumeSession(storage(STATE_KEY), Date.now()).off) return;
  const url = settings.baseUrl + '/api/v1/ingest/' + encodeURIComponent(settings.campaignId);
  const response = await send(url, { credentials: 'omit' });
  if (response.ok) start(settings, url, (await response.json()) as TrackerRules);
}

try {
  const settings = w.tapedeck;
  if (settings && !settings.started && !optedOut(navigator, w as { doNotTrack?: string })) {
    settings.started = 1;
    exposeConsent(settings);
    begin(settings).catch(() => {});
  }
} catch {
  // never throw into the host page
}
