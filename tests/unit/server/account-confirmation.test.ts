import { describe, expect, it } from 'vitest';
import { accountConfirmation, confirmsAccountDeletion } from '../../../common/account.js';

// The one rule the account page's Delete button and DELETE /api/v1/account both apply.

describe('confirming an account deletion', () => {
  const withEmail = { email: 'Ada@Example.com', name: 'Ada' };
  const withoutEmail = { email: null, name: 'Ada Lovelace' };

  it('asks for the email, or the name of an account without one', () => {
    expect(accountConfirmation(withEmail)).toBe('Ada@Example.com');
    expect(accountConfirmation(withoutEmail)).toBe('Ada Lovelace');
  });

  it('takes it in any case with spaces around, and nothing else', () => {
    expect(confirmsAccountDeletion(withEmail, '  ada@example.COM ')).toBe(true);
    expect(confirmsAccountDeletion(withEmail, 'Ada')).toBe(false);
    expect(confirmsAccountDeletion(withEmail, 'ada@example.co')).toBe(false);
    expect(confirmsAccountDeletion(withoutEmail, 'ada lovelace')).toBe(true);
    expect(confirmsAccountDeletion(withoutEmail, '')).toBe(false);
  });
});
