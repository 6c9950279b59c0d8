/** The address of AG Grid's chunk in a build; null outside one (`web/vite.config.ts`, `gridChunkUrl`). */
declare module 'virtual:grid-chunk-url' {
  const url: string | null;
  export default url;
}
