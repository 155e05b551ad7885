import { describe, expect, it } from 'vitest';
import { hasRole, ROLES } from './roles';

describe('hasRole', () => {
  it('gives each role the rights of the ones before it, and none of those after', () => {
    expect(ROLES.map((role) => ROLES.filter((needed) => hasRole(role, needed)))).toEqual([
      ['viewer'],
      ['viewer', 'operator'],
      ['viewer', 'operator', 'owner'],
    ]);
  });

  it('gives nobody signed in no right at all', () => {
    expect(ROLES.some((needed) => hasRole(undefined, needed))).toBe(false);
  });
});
