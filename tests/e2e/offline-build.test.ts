import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';

// The built service worker's precache manifest: the app shell is in it; the API, the tracker
// (loader, hosted loader, recorder) and the lazy chunks (player, terser) are not.

const root = path.resolve(import.meta.dirname, '../..');
const app = path.join(root, 'dist', 'app');
let precached: string[] = [];
let manifest: Record<string, unknown> = {};

beforeAll(() => {
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--if-needed'], { cwd: root, stdio: 'inherit' });
  const sw = fs.readFileSync(path.join(app, 'sw.js'), 'utf8');
  precached = [...sw.matchAll(/"url":"([^"]+)"/g)].map((match) => match[1]);
  manifest = JSON.parse(fs.readFileSync(path.join(app, 'manifest.webmanifest'), 'utf8')) as Record<string, unknown>;
});

describe('precache manifest', () => {
  it('holds the shell: index.html, the entry script and styles, the web manifest and the icons', () => {
    const html = fs.readFileSync(path.join(app, 'index.html'), 'utf8');
    const entryFiles = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]);
    expect(entryFiles.length).toBeGreaterThan(0);
    expect(precached).toEqual(
      expect.arrayContaining(['index.html', 'manifest.webmanifest', 'icons/icon-192.png', 'icons/icon-512.png', 'icons/maskable-512.png', ...entryFiles]),
    );
  });

  it('never holds the API, the tracker, the recorder or the lazy terser chunk', () => {
    expect(precached.length).toBeGreaterThan(5);
    for (const url of precached) {
      expect(url).not.toMatch(/^\/?api\//);
      expect(url).not.toMatch(/^\/?static\//);
      expect(url).not.toMatch(/^\/?t\//);
      expect(url).not.toMatch(/magicFormat|recorder/i);
      expect(url).not.toMatch(/terser-/);
      expect(url).not.toMatch(/\.gz$/);
    }
    // The lazy chunk exists in the build, it is just not precached — found by its contents,
    // whatever its file name.
    const lazy = chunksHolding('DefaultsError'); // terser
    expect(lazy.length).toBeGreaterThanOrEqual(1);
    for (const name of lazy) expect(precached).not.toContain(`assets/${name}`);
  });

  it("holds the player's code and styles, so a replay plays offline on a device that never opened one online", () => {
    const player = chunksHolding('rr-controller__btns'); // rrweb-player
    expect(player.length).toBeGreaterThanOrEqual(1);
    for (const name of player) expect(precached).toContain(`assets/${name}`);
    const styles = fs
      .readdirSync(path.join(app, 'assets'))
      .filter((name) => name.endsWith('.css') && fs.readFileSync(path.join(app, 'assets', name), 'utf8').includes('.rr-player'));
    expect(styles.length).toBeGreaterThanOrEqual(1);
    for (const name of styles) expect(precached).toContain(`assets/${name}`);
  });
});

/** The built chunks whose code contains `marker`. */
function chunksHolding(marker: string): string[] {
  const chunks = fs.readdirSync(path.join(app, 'assets')).filter((name) => name.endsWith('.js'));
  return chunks.filter((name) => fs.readFileSync(path.join(app, 'assets', name), 'utf8').includes(marker));
}

describe('web app manifest', () => {
  it('is installable: names, icons incl. maskable, standalone, colours, start_url and shortcuts', () => {
    expect(manifest).toMatchObject({
      name: expect.stringContaining('Tapedeck'),
      short_name: 'Tapedeck',
      description: expect.any(String),
      display: 'standalone',
      start_url: '/dashboard',
      theme_color: expect.stringMatching(/^#/),
      background_color: expect.stringMatching(/^#/),
    });
    const icons = manifest.icons as { src: string; sizes: string; purpose?: string }[];
    expect(icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(icons.some((icon) => icon.purpose === 'maskable')).toBe(true);
    for (const icon of icons) {
      const file = fs.readFileSync(path.join(app, icon.src));
      expect(file.subarray(1, 4).toString()).toBe('PNG');
      const [width, height] = [file.readUInt32BE(16), file.readUInt32BE(20)];
      expect(`${width}x${height}`).toBe(icon.sizes);
    }
    const shortcuts = manifest.shortcuts as { name: string; url: string }[];
    expect(shortcuts.map((s) => [s.name, s.url])).toEqual([
      ['Dashboard', '/dashboard'],
      ['Create Campaign', '/createCampaign'],
      ['Saved replays', '/saved'],
    ]);
  });

  it('lets the installed app open a downloaded recording file (tapedeck-{id}.json.gz) on /saved', () => {
    const handlers = manifest.file_handlers as { action: string; accept: Record<string, string[]> }[];
    const saved = handlers.find((handler) => handler.action === '/saved');
    expect(Object.values(saved?.accept ?? {}).flat()).toEqual(expect.arrayContaining(['.gz', '.json']));
  });
});
