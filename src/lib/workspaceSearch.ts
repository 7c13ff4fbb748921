import { MADE_ID } from '../../common/ids.js';

// The current workspace lives in the URL (`?workspace=<id>`) of the screens that list or make
// campaigns, so a link or a reload always says which workspace it shows (issue 37).

export interface WorkspaceSearch {
  workspace?: string;
}

/** A workspace id is one the server makes (common/ids.ts): anything else is dropped, never sent. */
export function validateWorkspaceSearch(search: Record<string, unknown>): WorkspaceSearch {
  return typeof search.workspace === 'string' && MADE_ID.test(search.workspace) ? { workspace: search.workspace } : {};
}
