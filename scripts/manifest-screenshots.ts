// Renders the web app manifest's screenshots (the richer install dialog of Chrome on desktop and
// Android): the real app, built and served by a throwaway server with a few sample campaigns and
// sessions, captured in Chromium. Writes public/screenshots/{dashboard-wide,sessions-narrow}.png.
// Run after `npm run build`: npx tsx scripts/manifest-screenshots.ts   (needs a Chromium; see tests/helpers/browser.ts)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../tests/helpers/browser.js';
import { startServer } from '../tests/helpers/server.js';
import { signIn } from '../tests/helpers/signin.js';
import { ACCESS_COOKIE, REFRESH_COOKIE } from '../server/auth/tokens.js';
import { insertSession } from '../server/recordings/seed.js';
import type { Campaign } from '../common/api-types.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'public/screenshots');
const DAY = 86_400_000;

const server = await startServer({}, { privateDist: true });
const browser = await launchChromium();
try {
  const owner = await signIn(server, { name: 'Ada Lovelace', email: 'ada@example.com' });
  const now = Date.now();
  const create = async (name: string, domains: string, start: number, end: number, limit: number) => {
    const answer = await fetch(`${server.url}/api/v1/campaign/create`, {
      method: 'POST',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name, domains, limit, start_date_time: start, end_date_time: end }),
    });
    if (answer.status !== 201) throw new Error(`create ${name}: ${answer.status} ${await answer.text()}`);
    return ((await answer.json()) as { data: Campaign }).data;
  };
  await create('Winter newsletter', 'news.example.com', now - 90 * DAY, now - 30 * DAY, 20);
  await create('Checkout redesign', 'shop.example.com, www.shop.example.com', now + 7 * DAY, now + 37 * DAY, 10);
  const spring = await create('Spring Sale', 'shop.example.com', now - 3 * DAY, now + 27 * DAY, 0);
  const visitors = [
    ['203.0.113.7', 'France', 'fr-FR', 'Europe/Paris', 8, false],
    ['198.51.100.24', 'Germany', 'de-DE', 'Europe/Berlin', 4, false],
    ['192.0.2.55', 'United States', 'en-US', 'America/New_York', 16, true],
    ['203.0.113.90', 'Japan', 'ja-JP', 'Asia/Tokyo', 6, false],
  ] as const;
  for (const [i, [ip, country, language, timezone, cores, bot]] of visitors.entries()) {
    await insertSession(server.db, {
      campaign_id: spring.id,
      id: `${['k3q9', 'b7tx', 'zz01', 'm4pd'][i]}Xa81c2f0e94d7`,
      started_at: now - (i + 1) * 3_600_000,
      last_activity_at: now - (i + 1) * 3_600_000 + 240_000,
      remote_ip: ip,
      country,
      language,
      timezone,
      hardware_concurrency: cores,
      cookies_enabled: 1,
      has_focus: bot ? 0 : 1,
      webdriver: bot ? 1 : 0,
      is_bot: bot ? 1 : 0,
      bot_reason: bot ? 'webdriver' : null,
      has_human_input: bot ? 0 : 1,
    });
  }

  const origin = server.config.publicUrl;
  const shoot = async (file: string, route: string, viewport: { width: number; height: number }, ready: string) => {
    const context = await browser.newContext({
      viewport,
      deviceScaleFactor: 1,
      isMobile: viewport.width < 600,
      hasTouch: viewport.width < 600,
      serviceWorkers: 'block',
    });
    await context.addCookies([
      { name: ACCESS_COOKIE, value: owner.jar.get(ACCESS_COOKIE)!, url: origin },
      { name: REFRESH_COOKIE, value: owner.jar.get(REFRESH_COOKIE)!, domain: new URL(origin).hostname, path: '/api/v1/auth' },
    ]);
    const page = await context.newPage();
    await page.goto(`${origin}${route}`);
    await page.locator(ready).first().waitFor();
    await page.evaluate(() => document.fonts.ready);
    fs.mkdirSync(outDir, { recursive: true });
    await page.screenshot({ path: path.join(outDir, file) });
    await context.close();
    console.log(`wrote public/screenshots/${file}`);
  };
  await shoot('dashboard-wide.png', '/dashboard', { width: 1280, height: 800 }, '[data-testid="campaign-row"]');
  await shoot('sessions-narrow.png', `/campaign/${spring.id}`, { width: 390, height: 844 }, '[data-testid="session-card"]');
} finally {
  await browser.close();
  await server.close();
}
