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

  it('believes X-Forwarded-For from no proxy unless TRUST_PROXY names some, and stops on a bad one', () => {
    expect(loadConfig({ DATA_DIR: dir }).TRUST_PROXY).toEqual([]);
    const trusted = loadConfig({ DATA_DIR: dir, TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,fd00::/8,::ffff:172.16.0.0/108' });
    expect(trusted.TRUST_PROXY.map((range) => `${range.address.toString()}/${range.bits}`)).toEqual([
      '127.0.0.1/32',
      '10.0.0.0/8',
      'fd00::/8',
      '172.16.0.0/12',
    ]);
    expect(() => loadConfig({ DATA_DIR: dir, TRUST_PROXY: '10.0.0.0/8,proxy.local' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir, TRUST_PROXY: '10.0.0.0/8,proxy.local' })).toThrow(
      /TRUST_PROXY: "proxy.local" is not an IP address/,
    );
    expect(() => loadConfig({ DATA_DIR: dir, TRUST_PROXY: '10.0.0.0/40' })).toThrow(/TRUST_PROXY/);
  });

  it("checks Google ID tokens against Google's keys unless told otherwise, and leaves Google sign-in off", () => {
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.GOOGLE_CLIENT_ID).toBeUndefined();
    expect(config.GOOGLE_CERTS_URL).toBe('https://www.googleapis.com/oauth2/v1/certs');
    expect(loadConfig({ DATA_DIR: dir, GOOGLE_CERTS_URL: 'http://127.0.0.1:9/certs' }).GOOGLE_CERTS_URL).toBe(
      'http://127.0.0.1:9/certs',
    );
    expect(() => loadConfig({ DATA_DIR: dir, GOOGLE_CERTS_URL: 'keys' })).toThrow(/GOOGLE_CERTS_URL/);
  });

  it('leaves billing off and gives new accounts a 14-day trial unless told otherwise', () => {
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.STRIPE_SECRET_KEY).toBeUndefined();
    expect(config.STRIPE_API_BASE).toBeUndefined();
    expect(config.TRIAL_DAYS).toBe(14);
    const set = loadConfig({
      DATA_DIR: dir,
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_PRICE_TEAM_YEARLY: 'price_team_year',
      STRIPE_API_BASE: 'http://127.0.0.1:12111',
      TRIAL_DAYS: '0',
    });
    expect(set).toMatchObject({
      STRIPE_PRICE_TEAM_YEARLY: 'price_team_year',
      STRIPE_API_BASE: 'http://127.0.0.1:12111',
      TRIAL_DAYS: 0,
    });
    expect(() => loadConfig({ DATA_DIR: dir, STRIPE_API_BASE: 'ftp://stripe' })).toThrow(/STRIPE_API_BASE/);
    expect(() => loadConfig({ DATA_DIR: dir, TRIAL_DAYS: '-1' })).toThrow(/TRIAL_DAYS/);
    expect(() => loadConfig({ DATA_DIR: dir, TRIAL_DAYS: 'two weeks' })).toThrow(/TRIAL_DAYS/);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATA_DIR: dir, SMTP_URL: '', PORT: ' ' }).PORT).toBe(3000);
  });
});
