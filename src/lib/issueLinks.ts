import { formatPlayerTime } from '../components/player/playerMath.js';
import { formatDurationMs } from './format.js';
import { plural } from './sessionTitle.js';

// "Create issue" from a replay (issue 38, part 4): a tracker's "new issue" page, prefilled by its
// URL with a title and a Markdown body — no token, nothing sent by Tapedeck. Pure: the replay
// page gathers the facts (src/lib/issueFacts.ts), this builds the text and the addresses. Only
// the session's summary facts and the error messages as stored go in: never a typed value.

export type Tracker = 'github' | 'gitlab' | 'jira' | 'linear';
export const TRACKERS: readonly Tracker[] = ['github', 'gitlab', 'jira', 'linear'];
export const TRACKER_NAMES: Record<Tracker, string> = { github: 'GitHub', gitlab: 'GitLab', jira: 'Jira', linear: 'Linear' };

/** Where a campaign's issues go, as its owner typed them once (kept on this device). */
export interface IssueTargets {
  /** "owner/repo". */
  github?: string;
  /** The project's address, "https://gitlab.com/group/project". */
  gitlab?: string;
  /** The site's address, "https://acme.atlassian.net". */
  jiraSite?: string;
  /** The project's numeric id (Jira's prefilled links name a project by it); none: Jira asks. */
  jiraProject?: string;
  /** The team's key ("ENG"); none: Linear's own new-issue page (linear.new) asks. */
  linearTeam?: string;
}

/** What an issue says about the session: the server's summary facts and the recording's errors. */
export interface IssueFacts {
  /** The id the site identified the visitor by, or "Anonymous". */
  who: string;
  /** Page paths in visit order (never their query strings). */
  pages: string[];
  durationMs?: number;
  errorCount: number;
  /** "2 errors", "1 rage click" (sessionProblems). */
  problems: string[];
  browser: string;
  os: string;
  device: string;
  viewport?: { width: number; height: number };
  /** The last errors, oldest first, each at its moment on the player's clock. */
  errors: { at: number; message: string }[];
}

/** The moment the issue points at: the replay page at the player's second, or a share link. */
export interface IssueMoment {
  link: string;
  atMs: number;
  shared: boolean;
}

/** Trackers and proxies refuse longer addresses; the body is cut to fit, never the link. */
export const URL_CAP = 8000;
export const TITLE_MAX = 120;
export const ERRORS_SHOWN = 5;
export const ERROR_MAX = 300;
const PAGES_SHOWN = 10;

/** Text cut to `max` characters (whole code points), with an ellipsis when cut. */
export function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** "ada@example.com on /checkout: 2 errors". */
export function issueTitle(facts: IssueFacts): string {
  const errors = facts.errorCount ? plural(facts.errorCount, 'error') : 'no errors';
  return cut(`${facts.who} on ${facts.pages[0] ?? 'no page'}: ${errors}`, TITLE_MAX);
}

/**
 * Inline code, on one line, whatever backticks it holds: the site's own text (an error message,
 * a page path, an id) is shown as it is and can never become a link, an image or a heading.
 */
export function code(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** The link's line: the first of the body, so cutting the body to fit never takes it. */
function momentLine(moment: IssueMoment): string {
  const at = formatPlayerTime(moment.atMs);
  return moment.shared ? `**Replay:** [watch from ${at}](${moment.link}) (a read-only share link)` : `**Replay:** [watch from ${at}](${moment.link})`;
}

function pagesText(pages: string[]): string {
  const shown = pages.slice(0, PAGES_SHOWN).map((page) => code(cut(page, 200)));
  return pages.length > PAGES_SHOWN ? `${shown.join(' → ')} → … (${pages.length} pages)` : shown.join(' → ');
}

/** The issue's body in Markdown: the moment's link first, then the session's summary and its last errors. */
export function issueMarkdown(facts: IssueFacts, moment: IssueMoment): string {
  const lines = [
    momentLine(moment),
    '',
    `- **Visitor:** ${code(facts.who)}`,
    `- **Pages:** ${facts.pages.length ? pagesText(facts.pages) : 'none recorded'}`,
    ...(facts.durationMs === undefined ? [] : [`- **Duration:** ${formatDurationMs(facts.durationMs)}`]),
    `- **Problems:** ${facts.problems.length ? facts.problems.join(', ') : 'none'}`,
    `- **Browser:** ${facts.browser} · ${facts.os} · ${facts.device}`,
    ...(facts.viewport ? [`- **Viewport:** ${facts.viewport.width}×${facts.viewport.height}`] : []),
  ];
  const errors = facts.errors.slice(-ERRORS_SHOWN);
  if (errors.length) {
    lines.push('', `**Last ${errors.length === 1 ? 'error' : `${errors.length} errors`}:**`, '');
    errors.forEach((error, i) => lines.push(`${i + 1}. ${formatPlayerTime(error.at)} ${code(cut(error.message, ERROR_MAX))}`));
  }
  lines.push('', '_From a Tapedeck session replay._');
  return lines.join('\n');
}

const query = (pairs: [string, string][]) => pairs.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&');

/** The tracker's new-issue address with the title and body, or null when its target is not set. */
function newIssueUrl(tracker: Tracker, targets: IssueTargets, title: string, body: string): string | null {
  switch (tracker) {
    case 'github':
      return targets.github
        ? `https://github.com/${targets.github}/issues/new?${query([
            ['title', title],
            ['body', body],
          ])}`
        : null;
    case 'gitlab':
      return targets.gitlab
        ? `${targets.gitlab}/-/issues/new?${query([
            ['issue[title]', title],
            ['issue[description]', body],
          ])}`
        : null;
    case 'jira': {
      if (!targets.jiraSite) return null;
      const project: [string, string][] = targets.jiraProject ? [['pid', targets.jiraProject]] : [];
      return `${targets.jiraSite}/secure/CreateIssueDetails!init.jspa?${query([...project, ['issuetype', '1'], ['summary', title], ['description', body]])}`;
    }
    case 'linear': {
      const base = targets.linearTeam ? `https://linear.app/team/${encodeURIComponent(targets.linearTeam)}/new` : 'https://linear.new/';
      return `${base}?${query([
        ['title', title],
        ['description', body],
      ])}`;
    }
  }
}

/** Whether the tracker's target is set (Linear needs none). */
export const trackerReady = (tracker: Tracker, targets: IssueTargets): boolean => newIssueUrl(tracker, targets, '', '') !== null;

export const CUT_NOTE = '_… cut to fit the link; "Copy as Markdown" has all of it._';

/**
 * The tracker's prefilled new-issue address, at most `cap` characters: the body loses its last
 * lines until it fits (its first line, the moment's link, always stays). Null when the tracker's
 * target is not set (Linear needs none).
 */
export function issueUrl(tracker: Tracker, targets: IssueTargets, facts: IssueFacts, moment: IssueMoment, cap = URL_CAP): string | null {
  const title = issueTitle(facts);
  const lines = issueMarkdown(facts, moment).split('\n');
  const whole = newIssueUrl(tracker, targets, title, lines.join('\n'));
  if (whole === null || whole.length <= cap) return whole;
  for (let kept = lines.length - 1; kept > 1; kept--) {
    const url = newIssueUrl(tracker, targets, title, [...lines.slice(0, kept), '', CUT_NOTE].join('\n'))!;
    if (url.length <= cap) return url;
  }
  return newIssueUrl(tracker, targets, title, [lines[0], '', CUT_NOTE].join('\n'));
}
