import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowSignup } from '../services/accounts/users';
import { type AnotherProcess, anotherProcess } from '../testing/anotherProcess';
import { type GoogleStandIn, startGoogleStandIn } from '../testing/googleStandIn';
import { startTestApi, type TestApi } from '../testing/harness';

const CLIENT_ID = 'topline-client.apps.googleusercontent.com';
let api: TestApi;
let google: GoogleStandIn;

beforeAll(async () => {
  google = await startGoogleStandIn(CLIENT_ID);
  api = await startTestApi({ env: { GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_CERTS_URL: google.certsUrl } });
  await allowSignup(api.db, 'newcomer@example.com');
});

afterAll(async () => {
  await api.close();
  await google.close();
});

const googleAuth = (body: Record<string, string>) => api.call('POST', '/user/google-auth', { body });

describe('Google sign-in', () => {
  it('creates an allow-listed Google user from an ID token and signs them in again', async () => {
    const first = await googleAuth({ credential: await google.idToken('newcomer@example.com') });
    expect(first.status).toBe(200);
    expect(first.body.app_token).toBeTruthy();
    const me = await api.call('GET', '/user/me', { token: first.body.app_token });
    expect(me.body.data.user).toMatchObject({ email: 'newcomer@example.com', auth_provider: 'google' });
    const second = await googleAuth({ credential: await google.idToken('NewComer@example.com') });
    expect(second.status).toBe(200);
    const status = await api.call('POST', '/users/email-signup-auth', { body: { email: 'newcomer@example.com' } });
    // The look-up does not tell a Google account from any other address (no account oracle).
    expect(status.body.data.status_code).toBe('email_next');
    const byPassword = await api.call('POST', '/users/email-signin', {
      body: { email: 'newcomer@example.com', password: 'anything' },
    });
    expect(byPassword.status).toBe(209);
    // Google's keys are fetched once and kept as long as Google's answer says.
    expect(google.fetches()).toBe(1);
  });

  it('still takes the ID token under the earlier field name access_token', async () => {
    const answer = await googleAuth({ access_token: await google.idToken('newcomer@example.com') });
    expect(answer.status).toBe(200);
    expect(answer.body.app_token).toBeTruthy();
    const neither = await googleAuth({});
    expect(neither.status).toBe(400);
    expect(neither.body.errors).toEqual({ credential: 'credential is required' });
  });

  it('answers 209 when a demo is needed and 210 for an e-mail user', async () => {
    const stranger = await googleAuth({ credential: await google.idToken('stranger@example.com') });
    expect(stranger.status).toBe(209);
    expect(stranger.body.app_token).toBeUndefined();
    await api.user('mail-user@example.com');
    const mailUser = await googleAuth({ credential: await google.idToken('mail-user@example.com') });
    expect(mailUser.status).toBe(210);
    expect(mailUser.body.message).toBe('this user is an email login user');
  });

  it('refuses a token for another app, from another issuer, expired, forged or with an unverified address', async () => {
    const now = Math.floor(Date.now() / 1000);
    const refused = [
      await google.idToken('newcomer@example.com', { aud: 'another-app.apps.googleusercontent.com' }),
      await google.idToken('newcomer@example.com', { iss: 'https://accounts.example.com' }),
      await google.idToken('newcomer@example.com', { iat: now - 7200, exp: now - 3600 }),
      await google.idToken('newcomer@example.com', {}, { signedBy: 'impostor' }),
      await google.idToken('newcomer@example.com', { email_verified: false }),
      // An OAuth access token, as the token client used to give, is not an ID token.
      'ya29.a0AfH6SMBx-not-an-id-token',
    ];
    for (const credential of refused) {
      const answer = await googleAuth({ credential });
      expect(answer.status).toBe(401);
      expect(answer.body.app_token).toBeUndefined();
    }
    const bare = (await google.idToken('newcomer@example.com')).split('.').slice(0, 2).join('.');
    expect((await googleAuth({ credential: `${bare}.` })).status).toBe(401);
  });

  describe('when it cannot check tokens', () => {
    const started: AnotherProcess[] = [];
    afterAll(async () => {
      for (const app of started) await app.close();
    });
    const post = async (app: AnotherProcess, credential: string) => {
      const response = await fetch(`${app.url}/api/v1/user/google-auth`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
        body: JSON.stringify({ credential }),
      });
      return { status: response.status, body: await response.json() };
    };

    it('is off without a client id: any token is refused as not configured', async () => {
      const off = await anotherProcess(api, { config: { GOOGLE_CLIENT_ID: undefined } });
      started.push(off);
      const answer = await post(off, await google.idToken('newcomer@example.com'));
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({
        title: 'Service Unavailable',
        message: 'Google sign-in is not configured',
        code: 'unavailable',
      });
      const other = await post(off, await google.idToken('newcomer@example.com', { aud: 'another-app' }));
      expect(other.status).toBe(503);
    });

    it("answers 503 when Google's keys cannot be fetched", async () => {
      const cut = await anotherProcess(api, { config: { GOOGLE_CERTS_URL: `${google.certsUrl}-missing` } });
      started.push(cut);
      const answer = await post(cut, await google.idToken('newcomer@example.com'));
      expect(answer.status).toBe(503);
      expect(answer.body.code).toBe('unavailable');
    });
  });
});
