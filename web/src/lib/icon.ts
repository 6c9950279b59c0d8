/** Plan icon upload rule (spec section 5): JPEG or PNG only, at most 2,000,000 bytes; anything else is ignored. */
export const ICON_MAX_BYTES = 2_000_000;
const ICON_TYPES = ['image/jpeg', 'image/png'];

export function acceptIcon<F extends { type: string; size: number }>(file: F | null | undefined): file is F {
  return Boolean(file && ICON_TYPES.includes(file.type) && file.size <= ICON_MAX_BYTES);
}
