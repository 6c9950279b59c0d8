import { describe, expect, it } from 'vitest';
import { caseCompareTraces } from './plCompare';
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

describe('caseCompareTraces', () => {
  it('names each case line with the escaped case name', () => {
    const traces = caseCompareTraces(
      [
        { case_name: LINK, pl: [{ arr: 5_000_000 }, { arr: null }] },
        { case_name: 'Upside & more', pl: [{ arr: 1_500_000 }, { arr: 3_000_000 }] },
      ],
      ['Y1', 'Y2'],
      [{ arr: '#111111' }],
      (name) => name,
    );
    expect(traces.map((t) => t.name)).toEqual([plotlyText(LINK), 'Upside &amp; more']);
    expect(traces.every((t) => !t.name?.includes('<'))).toBe(true);
    expect(traces[0]).toMatchObject({ type: 'scatter', x: ['Y1', 'Y2'], y: [5, null], line: { color: '#111111' } });
    expect(traces[1]?.y).toEqual([1.5, 3]);
  });

  it('escapes the label the screen shows, not only the stored name', () => {
    const [trace] = caseCompareTraces([{ case_name: 'base', pl: [] }], [], [], () => '<i>Base</i>');
    expect(trace?.name).toBe('&lt;i&gt;Base&lt;/i&gt;');
  });
});
