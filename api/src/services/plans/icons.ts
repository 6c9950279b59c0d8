/**
 * A plan's icon: checked and decoded with limits on upload, stored re-encoded at the size the web shows it, kept per
 * plan under the hash of its bytes (`plan_icons`, migration 014) and served from its own URL.
 */

import { createHash } from 'node:crypto';
import { badRequest, ICON_MAX_SIDE, ICON_SIZE } from '@topline/contract';
import sharp from 'sharp';
import type { Db } from '../../db';

export const MAX_ICON_BYTES = 2_000_000;
const TYPE_MESSAGE = 'the icon must be a JPEG or PNG of at most 2,000,000 bytes';
const SIDE_MESSAGE = `the icon must be at most ${ICON_MAX_SIDE} x ${ICON_MAX_SIDE} pixels`;

/**
 * Icons stored before uploads were limited (migration 014) are re-encoded when first served, if their pixels are at
 * most this many: a photo of a few thousand pixels a side, as those uploads could be, but no decompression bomb.
 */
const LEGACY_MAX_PIXELS = 4096 * 4096;

/** An icon as stored: re-encoded, square, ICON_SIZE a side. */
export interface Icon {
  bytes: Buffer;
  type: 'image/webp';
  hash: string;
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** JPEG or PNG by the first bytes, so that no other decoder (SVG, GIF, TIFF...) ever sees an upload. */
const isJpegOrPng = (bytes: Buffer) =>
  PNG.every((b, i) => bytes[i] === b) || (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff);

/**
 * The stored form: turned upright by its EXIF orientation, cropped to a square and scaled to ICON_SIZE, as WebP (a
 * tenth of PNG's size for a photo; the web shows it at 32 and 64 CSS pixels). A PNG's animation, if any, keeps its
 * first frame: an icon is still. `maxPixels` is sharp's `limitInputPixels`, checked from the header before any pixel
 * is decoded; libvips decodes on libuv's pool, not on the API's thread.
 */
async function render(bytes: Buffer, maxPixels: number): Promise<Icon> {
  const out = await sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error' })
    .rotate()
    .resize(ICON_SIZE, ICON_SIZE, { fit: 'cover' })
    .webp({ quality: 90 })
    .toBuffer();
  return { bytes: out, type: 'image/webp', hash: createHash('sha256').update(out).digest('hex') };
}

/**
 * An uploaded icon: a JPEG or PNG of at most 2,000,000 bytes and ICON_MAX_SIDE pixels a side, its dimensions read
 * from its header before its pixels are decoded, returned in its stored form.
 * @throws ApiError 400 on `business_plan_icon` for anything else, naming the limit it broke
 */
export async function iconOf(bytes: Buffer): Promise<Icon> {
  if (bytes.length === 0 || bytes.length > MAX_ICON_BYTES || !isJpegOrPng(bytes)) {
    throw badRequest({ business_plan_icon: TYPE_MESSAGE });
  }
  let size: { width: number; height: number };
  try {
    // The header only: no pixel is decoded here, so sharp's own pixel limit need not guard it.
    size = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw badRequest({ business_plan_icon: TYPE_MESSAGE });
  }
  if (!(size.width >= 1 && size.height >= 1)) throw badRequest({ business_plan_icon: TYPE_MESSAGE });
  if (size.width > ICON_MAX_SIDE || size.height > ICON_MAX_SIDE) {
    throw badRequest({ business_plan_icon: SIDE_MESSAGE });
  }
  try {
    return await render(bytes, ICON_MAX_SIDE * ICON_MAX_SIDE);
  } catch {
    throw badRequest({ business_plan_icon: TYPE_MESSAGE });
  }
}

/** Keeps an icon among the plan's (an icon it had before is already there), in the plan's write transaction. */
export async function storeIcon(trx: Db, planId: number, icon: Icon): Promise<void> {
  await trx('plan_icons')
    .insert({ plan_id: planId, hash: icon.hash, type: icon.type, bytes: icon.bytes })
    .onConflict(['plan_id', 'hash'])
    .ignore();
}

/** The URL of a plan's icon as `/user/me` names it: its hash makes it immutable. */
export const iconUrl = (planId: number, hash: string | null): string | null =>
  hash ? `/api/v1/business-plan/icon?business_plan_id=${planId}&v=${hash}` : null;

/**
 * One of the plan's icons by its hash, as served. An icon stored as uploaded before migration 014 is re-encoded on its
 * first read and kept so; one that cannot be (not an image, or too large to decode safely) is not served.
 */
export async function readIcon(db: Db, planId: number, hash: string): Promise<{ bytes: Buffer; type: string } | null> {
  const row = await db('plan_icons')
    .where({ plan_id: planId, hash })
    .first<{ bytes: Buffer; type: string; encoded: boolean } | undefined>('bytes', 'type', 'encoded');
  if (!row) return null;
  if (row.encoded) return { bytes: Buffer.from(row.bytes), type: row.type };
  let icon: Icon;
  try {
    const original = Buffer.from(row.bytes);
    if (!isJpegOrPng(original)) return null;
    icon = await render(original, LEGACY_MAX_PIXELS);
  } catch {
    return null;
  }
  // Two first reads at once both store the same bytes; the hash stays the URL's.
  await db('plan_icons').where({ plan_id: planId, hash }).update({ bytes: icon.bytes, type: icon.type, encoded: true });
  return { bytes: icon.bytes, type: icon.type };
}
