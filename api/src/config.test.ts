import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const dir = mkdtempSync(join(tmpdir(), 'topline-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('configuration', () => {
  it('has safe defaults for the embedded run and generates a lasting APP_SECRET', () => {
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SMTP_URL).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dir, PORT: '4100' }).PUBLIC_URL).toBe('http://localhost:4100');
    expect(config.APP_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dir, 'app-secret'), 'utf8').trim()).toBe(config.APP_SECRET);
    expect(loadConfig({ DATA_DIR: dir }).APP_SECRET).toBe(config.APP_SECRET);
  });

  it('stops on a bad value with a message naming the variable', () => {
    expect(() => loadConfig({ DATA_DIR: dir, PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir, PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATA_DIR: dir, DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ DATA_DIR: dir, APP_SECRET: 'short' })).toThrow(/APP_SECRET/);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATA_DIR: dir, SMTP_URL: '', PORT: ' ' }).PORT).toBe(3000);
  });
});
