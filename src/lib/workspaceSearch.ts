// The current workspace lives in the URL (`?workspace=<id>`) of the screens that list or make
// campaigns, so a link or a reload always says which workspace it shows (issue 37). The server
// checks the id (400 for one it never makes, 404 for a workspace the user is not in).

export interface WorkspaceSearch {
  workspace?: string;
}

export const validateWorkspaceSearch = (search: Record<string, unknown>): WorkspaceSearch =>
  typeof search.workspace === 'string' && search.workspace ? { workspace: search.workspace } : {};
