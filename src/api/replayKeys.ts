/** The replay queries' keys: a session's events, and the landing page's demo (never persisted: see queryPersister). */
export const replayKeys = {
  all: ['replay'] as const,
  session: (campaignId: string, sessionId: string) => [...replayKeys.all, campaignId, sessionId] as const,
  demo: (isMobile: boolean) => [...replayKeys.all, 'demo', isMobile] as const,
};
