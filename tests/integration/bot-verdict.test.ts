import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionRow } from '../../server/sessions/rows.js';
import { verdictOf } from '../../server/recordings/rules.js';
import { botVerdict, sessionEnded } from '../../server/recordings/rules.js';
import { markEndedSessionsWithoutInput } from '../../server/recordings/bot-sweep.js';
import { SESSION_IDLE_MS } from '../../common/limits.js';
import { serverWithCampaign } from './ingest-support.js';

// "Ended without human input = bot" is botVerdict's rule (server/recordings/rules.ts); the
// sweep writes it in SQL. Rows as ingest left them (judged as counted), swept at one moment, end
// with the verdict botVerdict gives them with `ended` from sessionEnded — on this database.

let { server, campaignId } = {} as Awaited<ReturnType<typeof serverWithCampaign>>;
beforeAll(async () => {
  ({ server, campaignId } = await serverWithCampaign('Verdict Owner'));
});
afterAll(async () => server?.close());

const HUMAN_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const session = fc.record({
  webdriver: fc.constantFrom(0, 1),
  user_agent: fc.constantFrom(HUMAN_UA, 'Googlebot/2.1 (+http://www.google.com/bot.html)', null),
  has_human_input: fc.constantFrom(0, 1),
  event_count: fc.constantFrom(0, 1, 199, 200, 500),
  idle_ms: fc.oneof(fc.constantFrom(0, SESSION_IDLE_MS - 1, SESSION_IDLE_MS, SESSION_IDLE_MS + 1), fc.nat(4 * SESSION_IDLE_MS)),
});

describe('the bot verdict', () => {
  it('is the same after the SQL sweep as botVerdict gives an ended session', async () => {
    const now = Date.now();
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(session, { minLength: 1, maxLength: 12 }), async (sessions) => {
        const campaign = campaignId;
        const prefix = `verdict-${round++}-`;
        const rows = sessions.map(({ idle_ms, ...facts }, i) => {
          const row = sessionRow({ campaign_id: campaign, id: `${prefix}${i}`, started_at: now - idle_ms - 60_000, last_activity_at: now - idle_ms, ...facts });
          return { ...row, ...verdictOf(row) };
        });
        await server.db.insertInto('sessions').values(rows).execute();
        await markEndedSessionsWithoutInput(server.db, campaign, now);
        const swept = await server.db
          .selectFrom('sessions')
          .select(['id', 'is_bot', 'bot_reason'])
          .where('campaign_id', '=', campaign)
          .where('id', 'like', `${prefix}%`)
          .execute();
        expect(swept).toHaveLength(rows.length);
        for (const row of rows) {
          const verdict = botVerdict({
            webdriver: row.webdriver === 1,
            userAgent: row.user_agent,
            hasHumanInput: row.has_human_input === 1,
            eventCount: row.event_count,
            ended: sessionEnded(row.last_activity_at, now),
          });
          const stored = swept.find((s) => s.id === row.id);
          expect({ isBot: stored?.is_bot === 1, reason: stored?.bot_reason ?? null }, row.id).toEqual(verdict);
        }
      }),
      { numRuns: 40 },
    );
  });
});
