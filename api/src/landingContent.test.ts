import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { SAMPLE_LANDING_CONTENT } from './http/webConfig';

const dir = mkdtempSync(join(tmpdir(), 'topline-landing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A landing content file of a deployment: one voice, one logo, one article with a link. */
const OWN = {
  testimonials: [
    {
      id: 'acme',
      company: 'Acme SaaS K.K.',
      person: 'Hanako Yamada',
      position: { ja: '代表取締役', en: 'CEO' },
      quote: { ja: '計画が一日で作れました。', en: 'We built our plan in a day.' },
      image: 'https://cdn.acme.example.com/hanako.png',
    },
  ],
  logos: ['Acme'],
  articles: [
    { outlet: 'Nikkei', title: { ja: 'Acmeの記事', en: 'An article on Acme' }, url: '/press/acme' },
    { outlet: 'TechCrunch', title: { ja: '無題', en: 'Untitled' } },
  ],
};

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('LANDING_CONTENT', () => {
  it('is the shipped sample when unset', () => {
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.landingContent).toEqual(JSON.parse(readFileSync(SAMPLE_LANDING_CONTENT, 'utf8')));
    expect(config.landingContent.testimonials.map((voice) => voice.id)).toEqual([
      'v01',
      'v02',
      'v03',
      'v04',
      'v05',
      'v06',
      'v07',
      'v08',
      'v09',
      'v10',
    ]);
  });

  it("reads a deployment's own file", () => {
    const config = loadConfig({ DATA_DIR: dir, LANDING_CONTENT: file('own.json', JSON.stringify(OWN)) });
    expect(config.landingContent).toEqual(OWN);
  });

  it('refuses a missing file, bad JSON and content of the wrong shape, naming the variable and the field', () => {
    const cases: Array<[string, RegExp]> = [
      [join(dir, 'missing.json'), /LANDING_CONTENT: cannot read .*missing\.json as JSON/],
      [file('broken.json', '{"testimonials": ['), /LANDING_CONTENT: cannot read .*broken\.json as JSON/],
      [file('empty.json', '{}'), /LANDING_CONTENT: .*empty\.json is not valid landing content: testimonials/],
      [
        file('script.json', JSON.stringify({ ...OWN, articles: [{ ...OWN.articles[0], url: 'javascript:alert(1)' }] })),
        /articles\.0\.url must be a path \(\/\.\.\.\) or an https URL/,
      ],
      [
        file(
          'halfway.json',
          JSON.stringify({ ...OWN, testimonials: [{ ...OWN.testimonials[0], quote: { ja: 'はい' } }] }),
        ),
        /testimonials\.0\.quote\.en/,
      ],
      [file('extra.json', JSON.stringify({ ...OWN, banner: 'Sale!' })), /banner/],
    ];
    for (const [path, message] of cases) {
      const load = () => loadConfig({ DATA_DIR: dir, LANDING_CONTENT: path });
      expect(load, path).toThrow(ConfigError);
      expect(load, path).toThrow(message);
    }
  });

  it('stops `npm start` with the message before it serves anything', () => {
    const root = resolve(import.meta.dirname, '..', '..');
    const started = spawnSync(process.execPath, ['--import', 'tsx', 'api/src/start.ts'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: join(dir, 'data'), PORT: '0', LANDING_CONTENT: file('bad.json', '[]') },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(started.status).toBe(1);
    expect(started.stderr).toContain('LANDING_CONTENT:');
    expect(started.stderr).toContain('bad.json is not valid landing content');
  }, 70_000);
});
