import { isbot } from 'isbot';
import { SESSION_IDLE_MS } from '../../common/limits.js';

// The bot verdict, once: a session is a bot by its webdriver flag, its user agent, or for having
// no human input — after NO_INPUT_EVENTS events, or once it has ended. Ingest judges a row as it
// counts a batch (session-rows.ts verdictOf); the sweep (bot-sweep.ts) judges the ended ones in SQL.

/** Whether a session has ended: no batch for SESSION_IDLE_MS, so the tracker has started another. */
export const sessionEnded = (lastActivityAt: number, now: number): boolean => lastActivityAt < endedBefore(now);

/** sessionEnded as a bound for SQL: a session whose `last_activity_at` is below this has ended. */
export const endedBefore = (now: number): number => now - SESSION_IDLE_MS;

/** A session this long without any human input is a bot even before it ends. */
export const NO_INPUT_EVENTS = 200;

export const BOT_REASONS = {
  webdriver: 'Automated browser: navigator.webdriver is true',
  userAgent: 'Crawler or headless browser user agent',
  noInput: 'No human input: no mouse, touch or pointer activity',
} as const;

export interface BotFacts {
  webdriver: boolean;
  userAgent: string | null;
  hasHumanInput: boolean;
  eventCount: number;
  /** Whether the session has ended (sessionEnded). */
  ended?: boolean;
}

/** The verdict with its reason: a set webdriver flag always means bot; then a crawler user agent, then no human input. */
export function botVerdict(facts: BotFacts): { isBot: boolean; reason: string | null } {
  if (facts.webdriver) return { isBot: true, reason: BOT_REASONS.webdriver };
  if (facts.userAgent && isbot(facts.userAgent)) return { isBot: true, reason: BOT_REASONS.userAgent };
  if (!facts.hasHumanInput && (facts.ended || facts.eventCount >= NO_INPUT_EVENTS)) return { isBot: true, reason: BOT_REASONS.noInput };
  return { isBot: false, reason: null };
}
