/** Stripe's request parameters (form-encoded, with bracketed keys) and its error bodies. */

export type Params = { [key: string]: Param };
export type Param = string | Params | Param[];

/** `a[b][0][c]=v&...` as Stripe reads it: nested objects, arrays from numeric indices. */
export function parseForm(text: string): Params {
  const root: Params = {};
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const [rawKey = '', rawValue = ''] = pair.split('=');
    const key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
    const value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    const path = [key.replace(/\[.*$/, ''), ...[...key.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1] ?? '')];
    let node: Params | Param[] = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const index = /^\d+$/.test(part) ? Number(part) : part;
      const container = node as Record<string | number, Param>;
      if (last) container[index] = value;
      else {
        container[index] ??= /^\d+$/.test(path[i + 1] ?? '') ? [] : {};
        node = container[index] as Params | Param[];
      }
    });
  }
  return root;
}

/** A refusal as Stripe answers it: an HTTP status and the body's `error`. */
export class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; code?: string; message: string; param?: string },
  ) {
    super(body.message);
  }
}

export const missing = (what: string, id: string) =>
  new StripeFailure(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${what}: '${id}'`,
  });

export const text = (params: Params, key: string): string | undefined => {
  const value = params[key];
  return typeof value === 'string' ? value : undefined;
};
export const record = (value: Param | undefined): Record<string, string> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : {};
export const list = (value: Param | undefined): Params[] =>
  Array.isArray(value) ? value.filter((v): v is Params => typeof v === 'object' && !Array.isArray(v)) : [];
