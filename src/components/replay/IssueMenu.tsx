import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.js';
import type { CreatedShare } from '../../../common/api/shares.js';
import type { ReplayEvent, ReplayInit } from '../../../common/api-types.js';
import { issueMarkdown, issueUrl, trackerReady, TRACKER_NAMES, TRACKERS, type IssueTargets, type Tracker } from '../../lib/issueLinks.js';
import { issueFactsAt, recordingIssueFacts, type RecordingIssueFacts } from '../../lib/issueFacts.js';
import { loadTargets, saveTargets } from '../../lib/issueTargets.js';
import { useCampaignPermissions } from '../../lib/permissions.js';
import { useOnline } from '../../offline/useOnline.js';
import { momentLink } from './moment.js';
import { sharePath } from './ReplayActions.js';
import { IssueTargetsForm } from './IssueTargetsForm.js';
import './issues.css';

// "Create issue" on the replay page: a menu of trackers, each opening its new-issue page in a new
// tab, prefilled with the session's summary, the link to the moment the player is at and the last
// errors (src/lib/issueLinks.ts); "Copy as Markdown" puts the same text on the clipboard. Only
// addresses are built, so it works offline on a saved replay; a share link needs the server.

/** How long a share link made for an issue opens its replay: the longest a link can. */
const ISSUE_SHARE_EXPIRY = '7d';
/** The menu's width (16rem) and a margin: room it needs right of the button's start. */
const MENU_ROOM_PX = 272;
const STATUS_MS = 5000;
const SHARE_OFFLINE = 'Share links need a connection: the issue links this page.';

interface IssueMenuProps {
  campaignId: string;
  sessionId: string;
  init: ReplayInit;
  events: ReplayEvent[];
  /** The player's moment, in ms from the recording's start (kept up to date by TrackMoment). */
  momentRef: RefObject<number>;
}

/** Keeps the player's moment where the page's header reads it, without drawing the header again at every tick. */
export function TrackMoment({ ms, intoRef }: { ms: number; intoRef: RefObject<number> }) {
  useEffect(() => {
    intoRef.current = ms;
  }, [ms, intoRef]);
  return null;
}

/** A share link made from this menu (7 days, no session details), used instead of the page's address while on. */
function useIssueShare(campaignId: string, sessionId: string) {
  const queryClient = useQueryClient();
  const [on, setOn] = useState(false);
  const make = useMutation({
    mutationFn: () => api.post<CreatedShare>(sharePath(campaignId, sessionId), { expiresIn: ISSUE_SHARE_EXPIRY, includeDetails: false }),
    onSuccess: () => {
      setOn(true);
      void queryClient.invalidateQueries({ queryKey: ['shares', campaignId, sessionId] });
    },
  });
  const toggle = () => (on || make.data ? setOn(!on) : make.mutate());
  return { url: on ? make.data?.url : undefined, on, pending: make.isPending, error: make.error, toggle };
}

/** Arrow keys, Home and End move between the menu's items; Escape closes it. */
function onMenuKey(event: KeyboardEvent<HTMLUListElement>, close: () => void) {
  const items = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('[role^="menuitem"]'));
  const at = items.indexOf(document.activeElement as HTMLElement);
  const next: Record<string, number> = { ArrowDown: (at + 1) % items.length, ArrowUp: (at - 1 + items.length) % items.length, Home: 0, End: items.length - 1 };
  if (event.key === 'Escape') {
    event.preventDefault();
    close();
  } else if (event.key in next) {
    event.preventDefault();
    items[next[event.key]]?.focus();
  }
}

export function IssueMenu({ campaignId, sessionId, init, events, momentRef }: IssueMenuProps) {
  const [open, setOpen] = useState(false);
  // Opened near the screen's right edge, the menu hangs to the left of the button's end.
  const [alignEnd, setAlignEnd] = useState(false);
  const [setup, setSetup] = useState<{ tracker?: Tracker } | null>(null);
  const [targets, setTargets] = useState(() => loadTargets(campaignId));
  const [status, setStatus] = useState('');
  const [manualCopy, setManualCopy] = useState<string | null>(null);
  const share = useIssueShare(campaignId, sessionId);
  const online = useOnline();
  const { refusal } = useCampaignPermissions(campaignId);
  const shareRefused = !online ? SHARE_OFFLINE : refusal('shares.manage');
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const known = useRef<{ events: ReplayEvent[]; facts: RecordingIssueFacts } | null>(null);

  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLElement>('[role^="menuitem"]')?.focus();
  }, [open]);
  // "Copied" and "saved" are said, then leave the header's row (the text to copy by hand stays).
  useEffect(() => {
    if (!status || manualCopy !== null) return;
    const timer = window.setTimeout(() => setStatus(''), STATUS_MS);
    return () => window.clearTimeout(timer);
  }, [status, manualCopy]);
  const close = (focusButton = true) => {
    setOpen(false);
    if (focusButton) button.current?.focus();
  };

  // Worked out when asked for (the recording is read once per download state), at the moment then.
  const issue = () => {
    if (known.current?.events !== events) known.current = { events, facts: recordingIssueFacts(init, events) };
    const atMs = momentRef.current ?? 0;
    // Offline a share link made before is left out, as the menu says.
    const shareUrl = shareRefused ? undefined : share.url;
    const link = momentLink(shareUrl ?? `${window.location.origin}${window.location.pathname}`, atMs);
    return { facts: issueFactsAt(known.current.facts, atMs), moment: { link, atMs, shared: Boolean(shareUrl) } };
  };
  const openTracker = (tracker: Tracker) => {
    const { facts, moment: at } = issue();
    const url = issueUrl(tracker, targets, facts, at);
    close(url !== null);
    if (url === null) setSetup({ tracker });
    else window.open(url, '_blank', 'noopener');
  };
  const copy = async () => {
    const { facts, moment: at } = issue();
    const markdown = issueMarkdown(facts, at);
    close();
    try {
      await navigator.clipboard.writeText(markdown);
      setManualCopy(null);
      setStatus('Copied');
    } catch {
      setManualCopy(markdown);
      setStatus('The clipboard is not available here: copy the text below.');
    }
  };
  const saved = (next: IssueTargets) => {
    saveTargets(campaignId, next);
    setTargets(next);
    setSetup(null);
    setStatus('Issue trackers saved');
    button.current?.focus();
  };

  return (
    <>
      <div
        className="issue-menu"
        onBlur={(event) => {
          if (open && !event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
        }}
      >
        <button
          ref={button}
          type="button"
          className="button button-secondary"
          aria-haspopup="menu"
          aria-expanded={open}
          aria-controls={open ? 'issue-menu-list' : undefined}
          onClick={(event) => {
            setAlignEnd(event.currentTarget.getBoundingClientRect().left + MENU_ROOM_PX > window.innerWidth);
            setOpen(!open);
          }}
        >
          {/* "Issue" on a phone, so the header's actions keep one row; its name stays "Create issue". */}
          <span className="phone-hidden">Create issue</span>
          <span className="issue-menu-short" aria-hidden="true">
            Issue
          </span>{' '}
          <span aria-hidden="true">▾</span>
        </button>
        {open && (
          <ul
            ref={menu}
            id="issue-menu-list"
            className={`issue-menu-list${alignEnd ? ' issue-menu-list-end' : ''}`}
            role="menu"
            aria-label="Create issue"
            onKeyDown={(event) => onMenuKey(event, close)}
          >
            {TRACKERS.map((tracker) => (
              <li key={tracker} role="none">
                <button type="button" role="menuitem" tabIndex={-1} onClick={() => openTracker(tracker)}>
                  {trackerReady(tracker, targets) ? TRACKER_NAMES[tracker] : `${TRACKER_NAMES[tracker]} (set up)`}
                </button>
              </li>
            ))}
            <li role="separator" />
            <li role="none">
              <button type="button" role="menuitem" tabIndex={-1} onClick={() => void copy()}>
                Copy as Markdown
              </button>
            </li>
            <li role="separator" />
            <li role="none">
              <button
                type="button"
                role="menuitemcheckbox"
                tabIndex={-1}
                aria-checked={share.on && !shareRefused}
                aria-disabled={Boolean(shareRefused) || share.pending}
                onClick={() => !shareRefused && !share.pending && share.toggle()}
              >
                Use a share link{share.pending ? ' (making one…)' : ''}
                {shareRefused && <span className="issue-menu-note">{shareRefused}</span>}
              </button>
            </li>
            <li role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                onClick={() => {
                  close(false);
                  setSetup({});
                }}
              >
                Issue trackers…
              </button>
            </li>
          </ul>
        )}
      </div>
      <span className="small muted issue-menu-status" role="status">
        {share.error ? share.error.message : status}
      </span>
      {manualCopy !== null && (
        <textarea
          className="input mono issue-manual-copy"
          readOnly
          rows={6}
          value={manualCopy}
          aria-label="Issue in Markdown"
          onFocus={(e) => e.target.select()}
        />
      )}
      {setup && <IssueTargetsForm targets={targets} tracker={setup.tracker} onSave={saved} onCancel={() => setSetup(null)} />}
    </>
  );
}
