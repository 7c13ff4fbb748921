import { afterEach, describe, expect, it } from 'vitest';
import {
  code,
  CUT_NOTE,
  issueMarkdown,
  issueTitle,
  issueUrl,
  trackerReady,
  URL_CAP,
  type IssueFacts,
  type IssueMoment,
  type IssueTargets,
} from '../../../src/lib/issueLinks.js';
import { issueFactsAt, recordingIssueFacts } from '../../../src/lib/issueFacts.js';
import { loadTargets, readTargets, saveTargets } from '../../../src/lib/issueTargets.js';
import { CAPTURED_TAGS } from '../../../common/captured.js';
import { PEOPLE_TAGS } from '../../../common/people.js';
import type { ReplayInit } from '../../../common/api-types.js';

const T0 = 1_700_000_000_000;
const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const LINK = 'https://td.example/campaign/c1/session/s1?t=12';

const facts = (over: Partial<IssueFacts> = {}): IssueFacts => ({
  who: 'ada@example.com',
  pages: ['/shop', '/pay'],
  durationMs: 95_000,
  errorCount: 2,
  problems: ['2 errors', '1 rage click'],
  browser: 'Chrome 131',
  os: 'macOS 10.15.7',
  device: 'Desktop',
  viewport: { width: 1280, height: 720 },
  errors: [
    { at: 12_000, message: 'TypeError: x is undefined' },
    { at: 14_000, message: 'payment failed' },
  ],
  ...over,
});
const moment: IssueMoment = { link: LINK, atMs: 12_900, shared: false };
const targets: IssueTargets = {
  github: 'acme/shop',
  gitlab: 'https://gitlab.example/acme/shop',
  jiraSite: 'https://acme.atlassian.net',
  jiraProject: '10001',
  linearTeam: 'ENG',
};
const params = (url: string) => new URL(url).searchParams;

describe('an issue’s text', () => {
  it('titles it by who, the entry page and the errors', () => {
    expect(issueTitle(facts())).toBe('ada@example.com on /shop: 2 errors');
    expect(issueTitle(facts({ who: 'Anonymous', errorCount: 0, pages: [] }))).toBe('Anonymous on no page: no errors');
    const long = issueTitle(facts({ who: 'x'.repeat(500) }));
    expect(Array.from(long)).toHaveLength(120);
    expect(long.endsWith('…')).toBe(true);
  });

  it('starts with the moment’s link, then the summary, the browser and the last errors', () => {
    const lines = issueMarkdown(facts(), moment).split('\n');
    expect(lines[0]).toBe(`**Replay:** [watch from 00:12](${LINK})`);
    const text = lines.join('\n');
    expect(text).toContain('- **Visitor:** `ada@example.com`');
    expect(text).toContain('- **Pages:** `/shop` → `/pay`');
    expect(text).toContain('- **Duration:** 1m 35s');
    expect(text).toContain('- **Problems:** 2 errors, 1 rage click');
    expect(text).toContain('- **Browser:** Chrome 131 · macOS 10.15.7 · Desktop');
    expect(text).toContain('- **Viewport:** 1280×720');
    expect(text).toContain('**Last 2 errors:**\n\n1. 00:12 `TypeError: x is undefined`\n2. 00:14 `payment failed`');
    expect(issueMarkdown(facts(), { ...moment, shared: true }).split('\n')[0]).toContain('(a read-only share link)');
  });

  it('shows the site’s text as code, so it can never become a link, an image or a heading', () => {
    expect(code('a `b` c')).toBe('``a `b` c``');
    expect(code('`edge`')).toBe('`` `edge` ``');
    expect(code('line one\n# heading\tand more')).toBe('`line one # heading and more`');
    const text = issueMarkdown(facts({ errors: [{ at: 0, message: '![pixel](https://evil.example/p.png)\n# Pwned' }] }), moment);
    expect(text).toContain('1. 00:00 `![pixel](https://evil.example/p.png) # Pwned`');
    expect(text.split('\n').some((line) => line.startsWith('# '))).toBe(false);
  });

  it('keeps the last five errors, each cut', () => {
    const errors = Array.from({ length: 8 }, (_, i) => ({ at: i * 1000, message: `error ${i} ${'x'.repeat(400)}` }));
    const text = issueMarkdown(facts({ errors }), moment);
    expect(text).toContain('**Last 5 errors:**');
    expect(text).not.toContain('error 2 ');
    expect(text).toContain('error 3 ');
    const first = text.split('\n').find((line) => line.startsWith('1. '))!;
    expect(first.length).toBeLessThan(320);
    expect(first).toContain('…`');
  });
});

describe('each tracker’s new-issue address', () => {
  const title = 'ada@example.com on /shop: 2 errors';
  const body = issueMarkdown(facts(), moment);

  it('GitHub: /owner/repo/issues/new with title and body', () => {
    const url = issueUrl('github', targets, facts(), moment)!;
    expect(url.startsWith('https://github.com/acme/shop/issues/new?title=')).toBe(true);
    expect([params(url).get('title'), params(url).get('body')]).toEqual([title, body]);
  });

  it('GitLab: the project’s /-/issues/new with issue[title] and issue[description]', () => {
    const url = issueUrl('gitlab', targets, facts(), moment)!;
    expect(url.startsWith('https://gitlab.example/acme/shop/-/issues/new?issue%5Btitle%5D=')).toBe(true);
    expect([params(url).get('issue[title]'), params(url).get('issue[description]')]).toEqual([title, body]);
  });

  it('Jira: CreateIssueDetails with the project id when there is one, a bug, summary and description', () => {
    const url = issueUrl('jira', targets, facts(), moment)!;
    expect(url.startsWith('https://acme.atlassian.net/secure/CreateIssueDetails!init.jspa?pid=10001&issuetype=1&summary=')).toBe(true);
    expect([params(url).get('summary'), params(url).get('description')]).toEqual([title, body]);
    const noProject = issueUrl('jira', { jiraSite: 'https://jira.acme.example/jira' }, facts(), moment)!;
    expect(noProject.startsWith('https://jira.acme.example/jira/secure/CreateIssueDetails!init.jspa?issuetype=1&summary=')).toBe(true);
  });

  it('Linear: the team’s new-issue page, or linear.new without a team', () => {
    const url = issueUrl('linear', targets, facts(), moment)!;
    expect(url.startsWith('https://linear.app/team/ENG/new?title=')).toBe(true);
    expect([params(url).get('title'), params(url).get('description')]).toEqual([title, body]);
    expect(issueUrl('linear', {}, facts(), moment)!.startsWith('https://linear.new/?title=')).toBe(true);
  });

  it('is null, and the tracker not ready, until its target is set (Linear needs none)', () => {
    for (const tracker of ['github', 'gitlab', 'jira'] as const) {
      expect(issueUrl(tracker, {}, facts(), moment)).toBeNull();
      expect([trackerReady(tracker, {}), trackerReady(tracker, targets)]).toEqual([false, true]);
    }
    expect(trackerReady('linear', {})).toBe(true);
  });

  it('encodes every character, so the text comes back whole', () => {
    const odd = facts({ who: 'a&b=c #d +e %f 😀 ü', errors: [{ at: 0, message: 'x?y&z=1#frag %20 + "q" <b>\u2028' }] });
    const url = issueUrl('github', targets, odd, moment)!;
    expect(url).not.toMatch(/[ #<>"😀ü]/u);
    expect(url.split('?')[1].split('&')).toHaveLength(2);
    expect(params(url).get('body')).toBe(issueMarkdown(odd, moment));
    expect(params(url).get('title')).toBe(issueTitle(odd));
  });

  it('cuts the body to fit the cap, never the link', () => {
    const errors = Array.from({ length: 5 }, (_, i) => ({ at: i, message: `${i} ${'错误'.repeat(150)}` }));
    for (const tracker of ['github', 'gitlab', 'jira', 'linear'] as const) {
      const url = issueUrl(tracker, targets, facts({ errors }), moment)!;
      expect(url.length).toBeLessThanOrEqual(URL_CAP);
      const text = params(url).get(tracker === 'github' ? 'body' : tracker === 'gitlab' ? 'issue[description]' : 'description')!;
      expect(text.split('\n')[0]).toBe(`**Replay:** [watch from 00:12](${LINK})`);
      expect(text.endsWith(CUT_NOTE)).toBe(true);
      expect(text).toContain('- **Visitor:**');
    }
    // Even a cap the summary cannot fit under keeps the link whole.
    const tight = params(issueUrl('github', targets, facts({ errors }), moment, 300)!).get('body')!;
    expect(tight).toBe(`**Replay:** [watch from 00:12](${LINK})\n\n${CUT_NOTE}`);
    // A body that fits is not cut.
    expect(params(issueUrl('github', targets, facts(), moment)!).get('body')).not.toContain(CUT_NOTE);
  });
});

describe('the facts, read from a recording', () => {
  const init = { userAgent: CHROME_MAC, errorCount: 7, failedRequestCount: 1, durationMs: 30_000 } as ReplayInit;
  const meta = (t: number, href: string, width: number) => ({ type: 4, timestamp: T0 + t, data: { href, width, height: 700 } });
  const custom = (t: number, tag: string, payload: object) => ({ type: 5, timestamp: T0 + t, data: { tag, payload } });
  // The tracker masks typed text before it leaves the page; what it sends must not reach an issue either way.
  const input = (t: number, text: string) => ({ type: 3, timestamp: T0 + t, data: { source: 5, id: 9, text, isChecked: false } });
  const events = [
    meta(0, 'https://shop.example/cart?token=s3cr3t-token', 1280),
    { type: 2, timestamp: T0 + 5, data: { node: { type: 0, childNodes: [] }, initialOffset: { left: 0, top: 0 } } },
    custom(100, PEOPLE_TAGS.identify, { userId: 'customer-4711', traits: { plan: 'gold' } }),
    input(200, 'hunter2'),
    input(300, '*******'),
    custom(1000, CAPTURED_TAGS.error, { message: 'TypeError: cart is null', source: 'app.js:1', stack: 'at secretFunction' }),
    custom(1500, CAPTURED_TAGS.console, { level: 'error', message: 'checkout failed' }),
    custom(1600, CAPTURED_TAGS.console, { level: 'warn', message: 'just a warning' }),
    meta(20_000, 'https://shop.example/pay', 390),
  ];

  it('takes who, the pages, the server’s counts, the browser and the errors, nothing typed', () => {
    const read = recordingIssueFacts(init, events);
    expect(read).toMatchObject({
      who: 'customer-4711',
      pages: ['/cart', '/pay'],
      durationMs: 30_000,
      errorCount: 7,
      problems: ['7 errors', '1 failed request'],
      browser: 'Chrome 131',
      device: 'Desktop',
      errors: [
        { at: 1000, message: 'TypeError: cart is null' },
        { at: 1500, message: 'checkout failed' },
      ],
    });
    const text = issueMarkdown(issueFactsAt(read, 0), moment);
    for (const secret of ['hunter2', '*******', 's3cr3t', 'token', 'secretFunction', 'gold', 'just a warning']) expect(text).not.toContain(secret);
  });

  it('names the viewport of the page shown at the moment', () => {
    const read = recordingIssueFacts(init, events);
    expect(issueFactsAt(read, 0).viewport).toEqual({ width: 1280, height: 700 });
    expect(issueFactsAt(read, 25_000).viewport).toEqual({ width: 390, height: 700 });
  });

  it('counts from the recording when the replay came without the server’s counts (an older saved copy)', () => {
    const read = recordingIssueFacts({ userAgent: null } as ReplayInit, events.slice(0, 7));
    expect([read.who, read.errorCount, read.problems, read.browser]).toEqual(['customer-4711', 2, ['2 errors'], 'Unknown browser']);
    expect(recordingIssueFacts({ userAgent: null } as ReplayInit, []).who).toBe('Anonymous');
  });
});

describe('the campaign’s trackers', () => {
  afterEach(() => localStorage.clear());

  it('reads what the owner typed, or says what is wrong', () => {
    expect(
      readTargets({
        github: ' https://github.com/acme/shop.git ',
        gitlab: 'gitlab.example/acme/shop/',
        jiraSite: 'acme.atlassian.net',
        jiraProject: '10001',
        linearTeam: 'eng',
      }),
    ).toEqual({
      targets: {
        github: 'acme/shop',
        gitlab: 'https://gitlab.example/acme/shop',
        jiraSite: 'https://acme.atlassian.net',
        jiraProject: '10001',
        linearTeam: 'ENG',
      },
      problems: {},
    });
    const wrong = readTargets({ github: 'acme', gitlab: 'javascript:alert(1)', jiraProject: 'SHOP', linearTeam: 'e n g' });
    expect(Object.keys(wrong.problems).sort()).toEqual(['github', 'gitlab', 'jiraProject', 'linearTeam']);
    expect(wrong.targets).toEqual({});
    expect(readTargets({ jiraProject: '10001' }).problems.jiraSite).toBe('A Jira project needs its site’s address.');
    expect(readTargets({ gitlab: 'https://user:pw@gitlab.example/a/b' }).problems.gitlab).toBeDefined();
    expect(readTargets({}).targets).toEqual({});
  });

  it('keeps them per campaign on this device, reading them again as typed', () => {
    saveTargets('c1', { github: 'acme/shop' });
    expect(loadTargets('c1')).toEqual({ github: 'acme/shop' });
    expect(loadTargets('c2')).toEqual({});
    localStorage.setItem('tapedeck.issueTargets.c3', JSON.stringify({ github: 'javascript:alert(1)', linearTeam: 'ENG', extra: 'x' }));
    expect(loadTargets('c3')).toEqual({ linearTeam: 'ENG' });
    localStorage.setItem('tapedeck.issueTargets.c4', '{not json');
    expect(loadTargets('c4')).toEqual({});
  });
});
