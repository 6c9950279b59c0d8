/**
 * Dependencies point one way (DESIGN.md, "Layout"): web -> contract -> engine and api -> contract -> engine; the engine
 * imports none of ours and the web never imports the API. bench/ and e2e/ drive the whole stack and may import
 * anything. `npm run depcheck` (part of `npm test`) fails on any rule below.
 *
 * Workspace packages (`@topline/engine`, ...) are symlinks in node_modules; they are followed to their folders, so a
 * rule sees `engine/src/index.ts` whether a file imports the package or a relative path. Type-only imports count.
 */

const testFile = '[.]test[.]tsx?$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
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
      comment: 'An import the cruiser cannot resolve escapes every rule above, so it is an error of its own.',
      from: {},
      to: { couldNotResolve: true },
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
