import { describe, expect, it } from 'vitest';
import { can, INVITABLE_ROLES, PERMISSIONS, ROLES, type Permission } from '../../../common/teams.js';
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

  it('names the same roles as the API’s schemas', () => {
    expect(literals(MemberRoleBody.properties.role)).toEqual([...ROLES].sort());
    expect(literals(InviteBody.properties.role)).toEqual([...INVITABLE_ROLES].sort());
  });
});
