import { createHash, randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { ICON_MAX_SIDE, ICON_SIZE } from '@topline/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { down as iconsDown, up as iconsUp } from '../../../migrations/014_plan_icons';
import { planForm, rolesAt, startTestApi, type TestApi } from '../testing/harness';

/**
 * A plan's icon (contract `planIcon`): decoded with limits on upload, stored re-encoded at the size the web shows it,
 * served from its own cached URL to the plan's owner and members only, named by URL in `/user/me`.
 */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

/** A grey image of random pixels (they do not compress: a 1024 x 1024 PNG is about 1 MB), as PNG or JPEG. */
async function image(width: number, height: number, format: 'png' | 'jpeg'): Promise<Uint8Array<ArrayBuffer>> {
  const encoded = sharp(randomBytes(width * height), { raw: { width, height, channels: 1 } }).toColourspace('b-w');
  return new Uint8Array(await (format === 'png' ? encoded.png() : encoded.jpeg()).toBuffer());
}

/** A PNG chunk: length, type, data and CRC. */
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

/**
 * A decompression bomb: a whole, valid 20000 x 20000 PNG (black, one bit a pixel) of about 50 KB, whose pixels take
 * 400 MB to decode, 1.2 GB as RGB. Written chunk by chunk, since encoding it with sharp takes many seconds.
 */
function bomb(): Uint8Array<ArrayBuffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(20_000, 0);
  header.writeUInt32BE(20_000, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = deflateSync(Buffer.alloc(20_000 * (1 + 20_000 / 8)), { level: 9 });
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const png = Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', rows), chunk('IEND', Buffer.alloc(0))]);
  return new Uint8Array(png);
}

async function fetchIcon(url: string, token?: string) {
  const response = await fetch(new URL(url, api.url), {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function meOf(token: string) {
  const me = await api.call('GET', '/user/me', { token });
  expect(me.status).toBe(200);
  return me;
}

const iconOfPlan = async (token: string, planId: number) =>
  (await meOf(token)).body.data.business_plans.find((p: { business_plan_id: number }) => p.business_plan_id === planId)
    .business_plan_icon as string | null;

/** Makes the user a member of the plan who accepted the invitation, with one level on every area. */
async function join(planId: number, user: { id: number; email: string }, level: 'no_access' | 'can_view') {
  await api
    .db('plan_members')
    .insert({ plan_id: planId, email: user.email, user_id: user.id, status: 'received', ...rolesAt(level) });
}

function editForm(planId: number, icon: Uint8Array<ArrayBuffer>, name: string) {
  const form = new FormData();
  form.set('business_plan_id', String(planId));
  form.set('business_plan_icon', new Blob([icon]), name);
  return form;
}

describe('plan icons', () => {
  it('refuses a decompression bomb with the dimension limit, and changes nothing', async () => {
    const { token, user } = await api.user('bomb@example.com', 'team');
    const png = bomb();
    expect(png.length).toBeLessThan(2_000_000);
    const header = await sharp(png, { limitInputPixels: false }).metadata();
    expect(header).toMatchObject({ format: 'png', width: 20_000, height: 20_000 });
    const created = await api.call('POST', '/business-plan/create', {
      token,
      form: planForm({}, { bytes: png, name: 'bomb.png' }),
    });
    expect(created.status).toBe(400);
    expect(created.body.errors.business_plan_icon).toContain(`${ICON_MAX_SIDE} x ${ICON_MAX_SIDE}`);
    expect(await api.db('business_plans').where({ owner_id: user.id })).toEqual([]);

    const plain = await api.call('POST', '/business-plan/create', { token, form: planForm() });
    expect(plain.status).toBe(201);
    const planId: number = plain.body.data.business_plan_id;
    const before = await api.db('business_plans').where({ id: planId }).first();
    const edited = await api.call('POST', '/business-plan/edit', { token, form: editForm(planId, png, 'bomb.png') });
    expect(edited.status).toBe(400);
    expect(edited.body.errors.business_plan_icon).toContain(`${ICON_MAX_SIDE} x ${ICON_MAX_SIDE}`);
    expect(await api.db('business_plans').where({ id: planId }).first()).toEqual(before);
    expect(await api.db('plan_icons').where({ plan_id: planId })).toEqual([]);
    expect(await iconOfPlan(token, planId)).toBeNull();
  });

  it('refuses an SVG, a GIF, a side one pixel over the limit and a truncated PNG', async () => {
    const { token, user } = await api.user('refused@example.com', 'team');
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>');
    const gif = new Uint8Array(
      await sharp(await image(8, 8, 'png'))
        .gif()
        .toBuffer(),
    );
    const wide = await image(ICON_MAX_SIDE + 1, 8, 'png');
    const truncated = (await image(64, 64, 'png')).slice(0, 200);
    for (const [bytes, name, message] of [
      [svg, 'i.svg', /JPEG or PNG/],
      [gif, 'i.gif', /JPEG or PNG/],
      [wide, 'wide.png', /1024 x 1024 pixels/],
      [truncated, 'cut.png', /JPEG or PNG/],
    ] as const) {
      const answer = await api.call('POST', '/business-plan/create', { token, form: planForm({}, { bytes, name }) });
      expect(answer.status, name).toBe(400);
      expect(answer.body.errors.business_plan_icon, name).toMatch(message);
    }
    expect(await api.db('business_plans').where({ owner_id: user.id })).toEqual([]);
  });

  it('stores a 1024 x 1024 PNG and a JPEG re-encoded at the size shown, and /user/me names a URL', async () => {
    const { token } = await api.user('icon-owner@example.com', 'team');
    const png = await image(ICON_MAX_SIDE, ICON_MAX_SIDE, 'png');
    expect(png.length).toBeGreaterThan(1_000_000);
    const created = await api.call('POST', '/business-plan/create', {
      token,
      form: planForm({}, { bytes: png, name: 'icon.png' }),
    });
    expect(created.status).toBe(201);
    const planId: number = created.body.data.business_plan_id;

    const me = await meOf(token);
    expect(me.text).not.toContain('data:');
    expect(me.text.length).toBeLessThan(4_000);
    const url = await iconOfPlan(token, planId);
    expect(url).toMatch(new RegExp(`^/api/v1/business-plan/icon\\?business_plan_id=${planId}&v=[0-9a-f]{64}$`));

    const served = await fetchIcon(url as string, token);
    expect(served.response.status).toBe(200);
    expect(served.response.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(served.response.headers.get('content-type')).toBe('image/webp');
    expect(served.bytes.length).toBeLessThan(60_000);
    expect(await sharp(served.bytes).metadata()).toMatchObject({ format: 'webp', width: ICON_SIZE, height: ICON_SIZE });
    expect(createHash('sha256').update(served.bytes).digest('hex')).toBe(
      new URL(url as string, api.url).searchParams.get('v'),
    );

    // A JPEG of another shape becomes the same square; the URL changes with it.
    const jpeg = await image(300, 200, 'jpeg');
    const edited = await api.call('POST', '/business-plan/edit', { token, form: editForm(planId, jpeg, 'i.jpg') });
    expect(edited.status).toBe(200);
    const next = await iconOfPlan(token, planId);
    expect(next).not.toBe(url);
    const second = await fetchIcon(next as string, token);
    expect(second.response.status).toBe(200);
    expect(await sharp(second.bytes).metadata()).toMatchObject({ format: 'webp', width: ICON_SIZE, height: ICON_SIZE });

    // Without its hash the URL answers the current icon, and is checked again each time.
    const current = await fetchIcon(`/api/v1/business-plan/icon?business_plan_id=${planId}`, token);
    expect(current.response.status).toBe(200);
    expect(current.response.headers.get('cache-control')).toBe('private, no-cache');
    expect(current.bytes.equals(second.bytes)).toBe(true);
    // The old URL still answers what it named.
    expect((await fetchIcon(url as string, token)).bytes.equals(served.bytes)).toBe(true);
  });

  it('serves the icon to the plan members only: 404 to a stranger and to a member of another plan', async () => {
    const { token } = await api.user('shared-owner@example.com', 'team');
    const created = await api.call('POST', '/business-plan/create', {
      token,
      form: planForm({}, { bytes: await image(64, 64, 'png'), name: 'icon.png' }),
    });
    const planId: number = created.body.data.business_plan_id;
    const url = (await iconOfPlan(token, planId)) as string;

    const member = await api.user('icon-member@example.com');
    await join(planId, member.user, 'no_access');
    const fetched = await fetchIcon(url, member.token);
    expect(fetched.response.status).toBe(200);
    expect(await sharp(fetched.bytes).metadata()).toMatchObject({ width: ICON_SIZE, height: ICON_SIZE });

    const stranger = await api.user('icon-stranger@example.com', 'team');
    expect((await fetchIcon(url, stranger.token)).response.status).toBe(404);
    const other = await api.user('other-owner@example.com', 'team');
    const otherPlan = await api.call('POST', '/business-plan/create', { token: other.token, form: planForm() });
    const otherMember = await api.user('other-member@example.com');
    await join(otherPlan.body.data.business_plan_id, otherMember.user, 'can_view');
    expect((await fetchIcon(url, otherMember.token)).response.status).toBe(404);
    // Another plan's id with this icon's hash is no way round.
    const hash = new URL(url, api.url).searchParams.get('v');
    const across = `/api/v1/business-plan/icon?business_plan_id=${otherPlan.body.data.business_plan_id}&v=${hash}`;
    expect((await fetchIcon(across, other.token)).response.status).toBe(404);
    expect((await fetchIcon(url)).response.status).toBe(401);
  });

  it('puts an earlier icon back on a restore of the history', async () => {
    const { token } = await api.user('restore-icon@example.com', 'team');
    const created = await api.call('POST', '/business-plan/create', {
      token,
      form: planForm({}, { bytes: await image(40, 40, 'png'), name: 'a.png' }),
    });
    const planId: number = created.body.data.business_plan_id;
    const first = await iconOfPlan(token, planId);
    const history = await api.call('GET', '/history', { token, query: { business_plan_id: planId } });
    const creation = history.body.data.changes[0].id as number;
    const edited = await api.call('POST', '/business-plan/edit', {
      token,
      form: editForm(planId, await image(50, 30, 'jpeg'), 'b.jpg'),
    });
    expect(edited.status).toBe(200);
    expect(await iconOfPlan(token, planId)).not.toBe(first);

    const restored = await api.call('POST', '/history/restore', {
      token,
      body: { business_plan_id: planId, at: creation },
    });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(await iconOfPlan(token, planId)).toBe(first);
    const current = await fetchIcon(`/api/v1/business-plan/icon?business_plan_id=${planId}`, token);
    expect(current.bytes.equals((await fetchIcon(first as string, token)).bytes)).toBe(true);
  });

  it('re-encodes an icon stored as uploaded before the limits when it is first fetched', async () => {
    const { token } = await api.user('legacy-icon@example.com', 'team');
    const created = await api.call('POST', '/business-plan/create', { token, form: planForm() });
    const planId: number = created.body.data.business_plan_id;
    // As migration 014 moved it: the original bytes, named by their hash, not yet encoded.
    const original = Buffer.from(await image(2000, 1500, 'jpeg'));
    const hash = createHash('sha256').update(original).digest('hex');
    await api.db('plan_icons').insert({ plan_id: planId, hash, type: 'image/jpeg', bytes: original, encoded: false });
    await api.db('business_plans').where({ id: planId }).update({ icon_hash: hash });

    const url = (await iconOfPlan(token, planId)) as string;
    expect(url).toContain(`v=${hash}`);
    const served = await fetchIcon(url, token);
    expect(served.response.status).toBe(200);
    expect(await sharp(served.bytes).metadata()).toMatchObject({ format: 'webp', width: ICON_SIZE, height: ICON_SIZE });
    const row = await api.db('plan_icons').where({ plan_id: planId, hash }).first();
    expect(row).toMatchObject({ encoded: true, type: 'image/webp' });
    expect(Buffer.from(row.bytes).equals(served.bytes)).toBe(true);

    // One that is no image is not served, nor does it stop the others.
    const junk = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const junkHash = createHash('sha256').update(junk).digest('hex');
    await api
      .db('plan_icons')
      .insert({ plan_id: planId, hash: junkHash, type: 'image/png', bytes: junk, encoded: false });
    const junkUrl = `/api/v1/business-plan/icon?business_plan_id=${planId}&v=${junkHash}`;
    expect((await fetchIcon(junkUrl, token)).response.status).toBe(404);
  });

  it('moves the icons stored in the plans themselves into plan_icons, unrecorded by the history', async () => {
    const { token } = await api.user('migrated-icon@example.com', 'team');
    const created = await api.call('POST', '/business-plan/create', {
      token,
      form: planForm({}, { bytes: await image(64, 64, 'png'), name: 'a.png' }),
    });
    const planId: number = created.body.data.business_plan_id;
    const plain = await api.call('POST', '/business-plan/create', { token, form: planForm() });
    const plainId: number = plain.body.data.business_plan_id;
    // Back to the plans holding their icons' bytes; then an original as large as uploads could be before.
    await iconsDown(api.db);
    const original = Buffer.from(await image(2000, 1500, 'jpeg'));
    await api.db('business_plans').where({ id: planId }).update({ icon: original, icon_type: 'image/jpeg' });
    const changes = await api
      .db('plan_changes')
      .whereIn('plan_id', [planId, plainId])
      .count<{ n: string }[]>('id as n');
    await iconsUp(api.db);

    expect(await api.db('plan_changes').whereIn('plan_id', [planId, plainId]).count('id as n')).toEqual(changes);
    const hash = createHash('sha256').update(original).digest('hex');
    const rows = await api.db('business_plans').whereIn('id', [planId, plainId]).orderBy('id');
    expect(rows.map((r) => [r.icon, r.icon_hash])).toEqual([
      [null, hash],
      [null, null],
    ]);
    expect(await api.db('plan_icons').where({ plan_id: planId }).select('hash', 'type', 'encoded')).toEqual([
      { hash, type: 'image/jpeg', encoded: false },
    ]);
    const url = (await iconOfPlan(token, planId)) as string;
    const served = await fetchIcon(url, token);
    expect(served.response.status).toBe(200);
    expect(await sharp(served.bytes).metadata()).toMatchObject({ format: 'webp', width: ICON_SIZE, height: ICON_SIZE });
  });
});
