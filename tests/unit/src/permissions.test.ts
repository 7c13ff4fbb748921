import { describe, expect, it } from 'vitest';
import { refusal } from '../../../src/lib/permissions.js';
import type { Workspace } from '../../../src/api/workspaces.js';

// The PWA hides or disables a control by the permissions the server answers for the workspace
// (the matrix with the workspace's viewer switches), never by the role's name alone.
const workspace = (role: Workspace['role'], permissions: string[]): Workspace => ({ id: 'w', name: 'Shop', role, personal: false, permissions });

describe('refusal', () => {
  it('allows what the workspace answers and gives the reason for the rest', () => {
    const viewer = workspace('viewer', ['sessions.watch']);
    expect(refusal(viewer, 'sessions.download')).toBe("Viewers can't download recordings");
    expect(refusal(viewer, 'shares.manage')).toBe("Viewers can't share replays");
  });

  it("follows the workspace's viewer switches as the server answers them", () => {
    const allowed = workspace('viewer', ['sessions.watch', 'sessions.download', 'shares.manage']);
    expect(refusal(allowed, 'sessions.download')).toBeNull();
    expect(refusal(allowed, 'shares.manage')).toBeNull();
    expect(refusal(allowed, 'data.erase')).toBe("Viewers can't erase sessions or people");
  });

  it('shows every control while the workspace is unknown (the server refuses anyway)', () => {
    expect(refusal(undefined, 'data.erase')).toBeNull();
  });

  it('shows every control for a workspace cached offline by a build that did not keep its permissions', () => {
    const cached = { id: 'w', name: 'Shop', role: 'viewer', personal: false } as unknown as Workspace;
    expect(refusal(cached, 'data.erase')).toBeNull();
  });
});
