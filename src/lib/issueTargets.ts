import type { IssueTargets } from './issueLinks.js';

// Where a campaign's issues go: typed once by its owner, checked here, kept in this device's
// localStorage under the campaign (a preference like Autoplay next, not data: nothing secret).

export type TargetField = keyof IssueTargets;

export const TARGET_FIELDS: readonly TargetField[] = ['github', 'gitlab', 'jiraSite', 'jiraProject', 'linearTeam'];

/** What each field takes, as its form says it. */
export const TARGET_LABELS: Record<TargetField, string> = {
  github: 'GitHub repository (owner/repo)',
  gitlab: 'GitLab project address',
  jiraSite: 'Jira site address',
  jiraProject: 'Jira project id (a number, optional)',
  linearTeam: 'Linear team key (optional)',
};

export const TARGET_EXAMPLES: Record<TargetField, string> = {
  github: 'acme/shop',
  gitlab: 'https://gitlab.com/acme/shop',
  jiraSite: 'https://acme.atlassian.net',
  jiraProject: '10001',
  linearTeam: 'ENG',
};

const FIELD_MAX = 300;
const GITHUB_REPO = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/;

/** An http(s) address without its query, fragment or trailing slash; null for anything else. */
function siteAddress(text: string): string | null {
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`);
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return null;
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
}

/** "owner/repo" from itself or from the repository's github.com address. */
function githubRepo(text: string): string | null {
  const repo = text.replace(/^(https?:\/\/)?(www\.)?github\.com\//i, '').replace(/(\.git)?\/*$/, '');
  return GITHUB_REPO.test(repo) ? repo : null;
}

const READERS: Record<TargetField, [read: (text: string) => string | null, problem: string]> = {
  github: [githubRepo, 'Type the repository as owner/repo.'],
  gitlab: [siteAddress, 'Type the project’s address, starting with https://.'],
  jiraSite: [siteAddress, 'Type the site’s address, like https://acme.atlassian.net.'],
  jiraProject: [(text) => (/^\d{1,18}$/.test(text) ? text : null), 'The project id is a number (Jira’s project settings show it).'],
  linearTeam: [(text) => (/^[A-Za-z0-9_-]{1,20}$/.test(text) ? text.toUpperCase() : null), 'A team key is letters and digits, like ENG.'],
};

/** The form's text read into targets, or the reason for each field that is not right. Empty fields are unset. */
export function readTargets(form: Partial<Record<TargetField, string>>): { targets: IssueTargets; problems: Partial<Record<TargetField, string>> } {
  const targets: IssueTargets = {};
  const problems: Partial<Record<TargetField, string>> = {};
  for (const field of TARGET_FIELDS) {
    const text = (form[field] ?? '').trim();
    if (!text) continue;
    const [read, problem] = READERS[field];
    const value = text.length <= FIELD_MAX ? read(text) : null;
    if (value === null) problems[field] = problem;
    else targets[field] = value;
  }
  if (targets.jiraProject && !targets.jiraSite && !problems.jiraSite) problems.jiraSite = 'A Jira project needs its site’s address.';
  return { targets, problems };
}

const storageKey = (campaignId: string) => `tapedeck.issueTargets.${campaignId}`;

/** The campaign's targets kept on this device (whatever was kept is read again through readTargets). */
export function loadTargets(campaignId: string): IssueTargets {
  try {
    const kept = JSON.parse(localStorage.getItem(storageKey(campaignId)) ?? '{}') as unknown;
    if (!kept || typeof kept !== 'object') return {};
    const form = Object.fromEntries(
      TARGET_FIELDS.flatMap((field) =>
        typeof (kept as Record<string, unknown>)[field] === 'string' ? [[field, (kept as Record<string, string>)[field]]] : [],
      ),
    );
    return readTargets(form).targets;
  } catch {
    return {}; // storage blocked or spoiled: nothing set
  }
}

export function saveTargets(campaignId: string, targets: IssueTargets): void {
  try {
    localStorage.setItem(storageKey(campaignId), JSON.stringify(targets));
  } catch {
    // not kept: the targets still hold on this page
  }
}
