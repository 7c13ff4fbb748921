// A short confirmation carried to the next page in the history entry's state (not the URL), so it
// shows once where the user lands and is not part of a link anyone could share or bookmark.

declare module '@tanstack/history' {
  interface HistoryState {
    /** A confirmation for the page this entry opens, e.g. 'Campaign deleted'. */
    notice?: string;
  }
}

export const CAMPAIGN_DELETED = 'Campaign deleted';
