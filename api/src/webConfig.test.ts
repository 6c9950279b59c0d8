import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './testing/harness';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({
    env: {
      DEMO_BOOKING_URL: 'https://booking.example.com/topline',
      GOOGLE_CLIENT_ID: 'client-123.apps.example.com',
      GOOGLE_CLIENT_SECRET: 'very-secret-value',
    },
  });
});
afterAll(() => api.close());

describe('GET /config.js', () => {
  it('gives the web its public configuration and never a secret', async () => {
    const response = await fetch(new URL('/config.js', api.url));
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('javascript');
    expect(text).toContain('"demoBookingUrl":"https://booking.example.com/topline"');
    expect(text).toContain('"googleClientId":"client-123.apps.example.com"');
    expect(text).not.toContain('very-secret-value');
    expect(text).not.toContain(api.config.APP_SECRET);
  });
});
