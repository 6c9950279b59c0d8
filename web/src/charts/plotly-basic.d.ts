declare module 'plotly.js-basic-dist-min' {
  const Plotly: unknown;
  export default Plotly;
}
