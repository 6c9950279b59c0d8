/**
 * Dependencies point one way (DESIGN.md, "Layout"): web -> contract -> engine and api -> contract -> engine; the engine
 * imports none of ours and the web never imports the API. bench/ and e2e/ drive the whole stack and may import
 * anything. `npm run depcheck` (part of `npm test`) fails on any rule below.
 *
 * Workspace packages (`@topline/engine`, ...) are symlinks in node_modules; they are followed to their folders, so a
 * rule sees `engine/src/index.ts` whether a file imports the package or a relative path. Type-only imports count.
 */

const testFile = '[.]test[.]tsx?$';

/**
 * The files a library package declares as its entry points: the targets of its package.json `exports` (or its `main`),
 * as a pattern of paths from the repository's root. Other packages reach it through these only.
 */
function entryPoints(pkg) {
  const manifest = require(`./${pkg}/package.json`);
  const targets = manifest.exports ? Object.values(manifest.exports) : [manifest.main];
  const escaped = targets.map((target) => target.replace(/^[.][/]/, '').replace(/[.]/g, '[.]'));
  return `^${pkg}/(${escaped.join('|')})$`;
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment:
        'A module never reaches itself again through its imports: a cycle means a shared piece sits in the wrong module.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'engine-through-its-entry-points',
      severity: 'error',
      comment:
        'Other packages use the engine through the entry points engine/package.json declares (`@topline/engine`, `/schema`, `/calendar`, ...), never a file of its src/ itself.',
      from: { pathNot: '^engine/' },
      to: { path: '^engine/', pathNot: entryPoints('engine') },
    },
    {
      name: 'contract-through-its-entry-point',
      severity: 'error',
      comment: 'Other packages use the contract through `@topline/contract` (contract/src/index.ts) only.',
      from: { pathNot: '^contract/' },
      to: { path: '^contract/', pathNot: entryPoints('contract') },
    },
    {
      name: 'engine-imports-none-of-ours',
      severity: 'error',
      comment: 'The engine is pure TypeScript with no knowledge of the wire, the server or the screens.',
      from: { path: '^engine/' },
      to: { path: '^(contract|api|web|bench|e2e|migrations)/' },
    },
    {
      name: 'contract-imports-engine-and-zod-only',
      severity: 'error',
      comment:
        'The contract is shared by the API and the browser: besides itself it may import @topline/engine and zod.',
      from: { path: '^contract/', pathNot: testFile },
      to: { pathNot: ['^contract/src/', '^engine/src/', '(^|/)node_modules/zod/'] },
    },
    {
      name: 'contract-tests-import-engine-zod-and-vitest-only',
      severity: 'error',
      comment: "The contract's tests may add the test runner to what the contract itself imports.",
      from: { path: `^contract/.*${testFile}` },
      to: { pathNot: ['^contract/src/', '^engine/src/', '(^|/)node_modules/(zod|vitest)/'] },
    },
    {
      name: 'contract-takes-only-types-from-the-engine-index',
      severity: 'error',
      comment:
        "The web's first bundle uses the contract: a value import of the engine's index would bring HyperFormula into it.",
      from: { path: '^contract/', pathNot: testFile },
      to: { path: '^engine/src/index[.]ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'api-never-imports-web',
      severity: 'error',
      comment: 'The API imports the contract and the engine; it knows nothing of the screens (nor of bench and e2e).',
      from: { path: '^api/' },
      to: { path: '^(web|bench|e2e)/' },
    },
    {
      name: 'web-never-imports-api',
      severity: 'error',
      comment: 'The web talks to the API over HTTP; what both sides share is the contract.',
      from: { path: '^web/' },
      to: { path: '^(api|migrations|bench|e2e)/' },
    },
    {
      name: 'imports-resolve',
      severity: 'error',
      comment:
        'An import the cruiser cannot resolve escapes every rule above, so it is an error of its own. The one module ' +
        'a build plugin makes (web/vite.config.ts) is known.',
      from: {},
      to: { couldNotResolve: true, pathNot: '^virtual:grid-chunk-url$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^[^/]+/dist/' },
    tsPreCompilationDeps: true,
    preserveSymlinks: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'types', 'default'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
