// Deleting an account is confirmed by typing the account's email again (its name when it has no
// email), case and surrounding spaces ignored: the PWA enables its button and the server checks
// the same rule.

export interface Confirmable {
  email: string | null;
  name: string;
}

/** What the user must type to delete the account. */
export const accountConfirmation = (user: Confirmable): string => user.email ?? user.name;

export const confirmsAccountDeletion = (user: Confirmable, typed: string): boolean =>
  typed.trim().toLowerCase() === accountConfirmation(user).trim().toLowerCase();

/** The answer to a deletion whose confirmation is not the account's email. */
export const WRONG_CONFIRMATION = 'The confirmation does not match the account’s email; nothing was deleted';
