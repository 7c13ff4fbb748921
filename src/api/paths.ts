// The paths of every API call the PWA makes, held in one table.
import { replayApiPath } from '../lib/replayUrls.js';

export const API_PATHS = {
  me: '/api/v1/auth/me',
  validateToken: '/api/v1/auth/validateToken',
  refresh: '/api/v1/auth/refresh',
  logout: '/api/v1/auth/logout',
  googleLogin: '/api/v1/auth/google/login',
  googleCallback: '/api/v1/auth/google/callback',
  campaigns: '/api/v1/campaign/getAll',
  createCampaign: '/api/v1/campaign/create',
  updateCampaign: (campaignId: string) => `/api/v1/campaign/update/${encodeURIComponent(campaignId)}`,
  deleteCampaign: (campaignId: string) => `/api/v1/campaign/delete/${encodeURIComponent(campaignId)}`,
  sessions: (campaignId: string) => `/api/v1/streaming/sessions/${encodeURIComponent(campaignId)}/`,
  session: (campaignId: string, sessionId: string) => `/api/v1/streaming/sessions/${encodeURIComponent(campaignId)}/${encodeURIComponent(sessionId)}`,
  insights: (campaignId: string) => `/api/v1/insights/${encodeURIComponent(campaignId)}`,
  star: (campaignId: string, sessionId: string) => `/api/v1/streaming/sessions/${encodeURIComponent(campaignId)}/${encodeURIComponent(sessionId)}/star`,
  segments: (campaignId: string) => `/api/v1/segments/${encodeURIComponent(campaignId)}`,
  segment: (campaignId: string, segmentId: string) => `/api/v1/segments/${encodeURIComponent(campaignId)}/${encodeURIComponent(segmentId)}`,
  notes: (campaignId: string, sessionId: string) => `/api/v1/notes/${encodeURIComponent(campaignId)}/${encodeURIComponent(sessionId)}`,
  note: (campaignId: string, sessionId: string, noteId: string) =>
    `/api/v1/notes/${encodeURIComponent(campaignId)}/${encodeURIComponent(sessionId)}/${encodeURIComponent(noteId)}`,
  replay: replayApiPath,
  liveSessions: (campaignId: string) => `/api/v1/streaming/sessions/${encodeURIComponent(campaignId)}/live`,
  liveReplay: (campaignId: string, sessionId: string) => `/api/v1/replay/live/${encodeURIComponent(campaignId)}/${encodeURIComponent(sessionId)}`,
  demoReplay: '/api/v1/replay/retrieve/demo',
  loaderScript: '/static/magicFormat.js',
  siteConfig: '/api/v1/config',
  account: '/api/v1/account',
  signIns: '/api/v1/account/sign-ins',
  signIn: (id: string) => `/api/v1/account/sign-ins/${encodeURIComponent(id)}`,
  signOutEverywhere: '/api/v1/account/sign-out-everywhere',
} as const;
