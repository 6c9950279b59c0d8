import { describe, expect, it } from 'vitest';
import { plotlyText } from './plotlyText';

const LINK = '<a href="https://evil.example/">Base</a>';

describe('plotlyText', () => {
  it('escapes the characters Plotly reads as markup, quotes and ampersands', () => {
    expect(plotlyText(LINK)).toBe('&lt;a href=&#34;https://evil.example/&#34;&gt;Base&lt;/a&gt;');
    expect(plotlyText("S&M <b>bold</b> 'x'")).toBe('S&amp;M &lt;b&gt;bold&lt;/b&gt; &#39;x&#39;');
    // An entity the user typed shows as typed.
    expect(plotlyText('&lt;br&gt;')).toBe('&amp;lt;br&amp;gt;');
  });

  it('leaves other text alone', () => {
    expect(plotlyText('Base case 2026 (×1.5) 株式会社')).toBe('Base case 2026 (×1.5) 株式会社');
    expect(plotlyText('')).toBe('');
  });
});
