/** Import rules checked by `npm run lint` (its `lint:deps` step, package.json: depcruise with this file): no cycle between files, none between folders. */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'Two files that import each other (directly or round a loop): move what both need to where it belongs.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      scope: 'folder',
      comment: 'Two modules (folders) that import each other: one of them owns what both need.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'one-way-workspaces',
      severity: 'error',
      comment: 'Imports run one way: apps/web -> packages/domain <- apps/api.',
      from: { path: '^(packages/domain|apps/web)/' },
      to: { path: '^apps/api/' },
    },
    {
      name: 'domain-imports-no-app',
      severity: 'error',
      from: { path: '^packages/domain/' },
      to: { path: '^apps/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Tests and fixtures import across modules on purpose; app.ts/server.ts are the composition root (they
    // import every module and nothing imports them, so they close no loop, but as files of the src/ folder
    // they would tie every folder to config.ts, which the lower layers read).
    exclude: { path: ['(^|/)(node_modules|dist|migrations|test|e2e)/', '\\.test\\.tsx?$', '^apps/api/src/(app|server)\\.ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.deps.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
