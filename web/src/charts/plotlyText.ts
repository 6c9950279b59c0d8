/**
 * User text (case names, cost item names) as Plotly text. Plotly renders a subset of HTML in trace names, legends,
 * hover labels, titles, annotations and tick labels, links included: a case named
 * `<a href="https://evil.example/">Base</a>` would show as a working link. Every piece of user text that reaches
 * Plotly goes through `plotlyText`.
 *
 * Plotly decodes `&amp;`, `&lt;`, `&gt;` and numeric character references in the text between tags, so the escaped
 * text shows exactly as the user typed it. Quotes are written as numeric references because Plotly does not know
 * `&quot;`.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };

export function plotlyText(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);
}
