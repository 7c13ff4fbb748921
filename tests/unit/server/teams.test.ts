import { describe, expect, it } from 'vitest';
import { can, INVITABLE_ROLES, PERMISSIONS, permissionsOf, ROLES, SWITCH_NAMES, type Permission } from '../../../common/teams.js';
import { InviteBody, MemberRoleBody } from '../../../common/api/workspaces.js';

const literals = (node: unknown) => ((node as { anyOf: { const: string }[] }).anyOf ?? []).map((branch) => branch.const).sort();

describe('the permission matrix (common/teams.ts)', () => {
  it('is what docs/teams.md shows: each role holds what the roles below it hold, and more', () => {
    const held = (role: (typeof ROLES)[number]) => (Object.keys(PERMISSIONS) as Permission[]).filter((p) => can(role, p));
    expect(held('viewer')).toEqual(['campaigns.view', 'sessions.watch', 'members.view']);
    expect(held('member')).toEqual([
      'campaigns.view',
      'sessions.watch',
      'sessions.download',
      'sessions.star',
      'notes.write',
      'segments.write',
      'funnels.write',
      'shares.manage',
      'members.view',
    ]);
    expect(held('admin')).toEqual(Object.keys(PERMISSIONS).filter((p) => !p.startsWith('workspace.')));
    expect(held('owner')).toEqual(Object.keys(PERMISSIONS));
  });

  it("gives viewers downloads and shares only where the workspace's switches allow them, and nothing else", () => {
    const all = Object.keys(PERMISSIONS) as Permission[];
    const on = Object.fromEntries(SWITCH_NAMES.map((name) => [name, true]));
    expect(can('viewer', 'sessions.download')).toBe(false);
    expect(can('viewer', 'sessions.download', { viewers_can_download: true })).toBe(true);
    expect(can('viewer', 'shares.manage', { viewers_can_download: true })).toBe(false);
    expect(can('viewer', 'shares.manage', { viewers_can_share: true })).toBe(true);
    expect(permissionsOf('viewer', on)).toEqual(['campaigns.view', 'sessions.watch', 'sessions.download', 'shares.manage', 'members.view']);
    for (const role of ROLES.filter((r) => r !== 'viewer')) expect(permissionsOf(role, on)).toEqual(all.filter((p) => can(role, p)));
  });

  it('names the same roles as the API’s schemas', () => {
    expect(literals(MemberRoleBody.properties.role)).toEqual([...ROLES].sort());
    expect(literals(InviteBody.properties.role)).toEqual([...INVITABLE_ROLES].sort());
  });
});
