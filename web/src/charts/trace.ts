/** One series of a chart, in Plotly's terms (the fields the screens use). */
export interface Trace {
  type: 'bar' | 'scatter' | 'pie';
  name?: string;
  x?: (string | number)[];
  y?: (number | null)[];
  values?: number[];
  labels?: string[];
  mode?: string;
  marker?: Record<string, unknown>;
  line?: Record<string, unknown>;
  yaxis?: string;
  fill?: string;
  hole?: number;
  text?: string[];
  textposition?: string;
  hovertemplate?: string;
}
