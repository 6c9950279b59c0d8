/**
 * XML text as the XLSX writer (`xlsxWriter.ts`) writes it: escaped for an attribute or an element's content, and
 * written as UTF-8 bytes into one growing buffer, markup and short ASCII text byte by byte, so that a sheet of tens of
 * thousands of cells makes no string for each.
 */

/** Characters XML 1.0 cannot hold at all; a name or a label with one loses it rather than corrupting the file. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the control characters is the point.
const INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Text as an attribute value holds it. */
export function xmlText(text: string): string {
  return text.replace(INVALID, '').replace(/[&<>"]/g, (c) => ENTITY[c] ?? c);
}
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the control characters is the point.
const CONTENT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF&<>]/g;

/** Text as an element's content holds it (a quote needs no escape there): one pass over a formula's text. */
export function xmlContent(text: string): string {
  return text.replace(CONTENT, (c) => ENTITY[c] ?? '');
}

/** Whether a text holds a character that element content must escape or drop (`CONTENT`, tested without moving on). */
const NEEDS_ESCAPE = new RegExp(CONTENT.source);

/** UTF-8 bytes written text by text into one buffer that grows as needed, so no part is ever one long string. */
export class Utf8Buffer {
  private bytes = new Uint8Array(1 << 20);
  private length = 0;
  private readonly encoder = new TextEncoder();

  /** Room for `n` more bytes. */
  private room(n: number): void {
    const need = this.length + n;
    if (need <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(need, this.bytes.length * 2));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  write(text: string): void {
    // UTF-8 takes at most 3 bytes for each UTF-16 unit.
    this.room(text.length * 3);
    // Short text byte by byte while it is ASCII, as most of a sheet is: no view of the buffer made for it.
    let i = 0;
    if (text.length < 256) {
      const bytes = this.bytes;
      let at = this.length;
      for (; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c >= 128) break;
        bytes[at++] = c;
      }
      this.length = at;
      if (i === text.length) return;
    }
    this.length += this.encoder.encodeInto(i ? text.slice(i) : text, this.bytes.subarray(this.length)).written;
  }

  /** Markup, references and numbers: ASCII only. */
  ascii(text: string): void {
    this.room(text.length);
    const bytes = this.bytes;
    let at = this.length;
    for (let i = 0; i < text.length; i++) bytes[at++] = text.charCodeAt(i);
    this.length = at;
  }

  /** Text as an element's content holds it (`xmlContent`). */
  content(text: string): void {
    this.write(NEEDS_ESCAPE.test(text) ? xmlContent(text) : text);
  }

  /** The bytes written since the last `clear` (a view: valid until the next write). */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }

  clear(): void {
    this.length = 0;
  }
}
