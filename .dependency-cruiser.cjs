/**
 * The layer rule (see docs/architecture.md), checked on every `npm test`:
 *   domain          imports nothing outside src/domain (no packages, no Node built-ins)
 *   application     imports domain (and rxjs/inversify), never contract, infrastructure, ui or main
 *   contract        imports domain (and zod)
 *   infrastructure  imports application, domain and contract, never ui or main
 *   ui              imports application and domain, never infrastructure, contract or main
 *   main            the composition root: the only src folder that may import infrastructure
 *   testing         onkure/testing: scripted port doubles, ManualClock, factories; imports application and
 *                   domain (and rxjs) only, and no product code imports it
 *   server          imports src/domain and src/contract only; only server/composition/api.plugin.ts imports server/routes/
 *   agent           the station agent: imports src/domain, src/contract and media only, and the server never imports it
 *   media           VP8 encoding, RTP, the WHIP client and the camera painter, shared by the server and the agent: imports src/domain only
 * Paths are anchored, so a folder that merely contains the word "domain" elsewhere is not caught.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'src/domain imports nothing outside itself: no other layer, no package, no Node built-in.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { pathNot: '^src/domain/' },
    },
    {
      name: 'application-imports-domain-only',
      severity: 'error',
      from: { path: '^src/application/' },
      to: { path: '^(src/(infrastructure|ui|main|contract)/|server/)' },
    },
    {
      name: 'application-no-adapter-packages',
      comment: 'Use-cases reach the outside world through ports, never through an HTTP, socket or video package.',
      severity: 'error',
      from: { path: '^src/application/' },
      to: {
        dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown', 'core'],
        pathNot: 'node_modules/(rxjs|inversify|@inversifyjs)/',
      },
    },
    {
      name: 'contract-imports-domain-only',
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { path: '^(src/(application|infrastructure|ui|main)/|server/)' },
    },
    {
      name: 'infrastructure-not-ui-or-main',
      severity: 'error',
      from: { path: '^src/infrastructure/' },
      to: { path: '^(src/(ui|main)/|server/)' },
    },
    {
      name: 'ui-never-imports-adapters',
      comment: 'The UI gets adapters through the container; only src/main binds them.',
      severity: 'error',
      from: { path: '^src/ui/' },
      to: { path: '^(src/(infrastructure|main|contract)/|server/)' },
    },
    {
      name: 'ui-no-adapter-packages',
      severity: 'error',
      from: { path: '^src/ui/' },
      to: { path: 'node_modules/(ky|socket\\.io-client|sora-js-sdk|zod)/' },
    },
    {
      name: 'only-main-binds-adapters',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(main|infrastructure)/' },
      to: { path: '^src/infrastructure/' },
    },
    {
      name: 'nothing-imports-main',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/main/' },
      to: { path: '^src/main/' },
    },
    {
      name: 'testing-imports-application-and-domain-only',
      comment: 'Test doubles answer what the test scripts: they never reach an adapter, the contract or the server.',
      severity: 'error',
      from: { path: '^src/testing/' },
      to: { path: '^(src/(infrastructure|ui|main|contract)/|server/)' },
    },
    {
      name: 'product-never-imports-testing',
      severity: 'error',
      from: { path: '^(src/(domain|application|contract|infrastructure|ui|main)/|server/)' },
      to: { path: '^src/testing/' },
    },
    {
      name: 'server-reuses-domain-and-contract-only',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^src/(application|infrastructure|ui)/' },
    },
    {
      name: 'agent-speaks-the-protocol-only',
      severity: 'error',
      comment:
        'The station agent runs beside the cabinet, apart from the server: it shares the protocol (src/contract) and the simulated crane (src/domain), never server code.',
      from: { path: '^agent/' },
      to: { path: '^(server/|src/(application|infrastructure|ui|main|testing)/)' },
    },
    {
      name: 'media-is-shared',
      comment:
        'media/ (VP8 encoding, RTP, the WHIP client, the camera painter) is used by the server and the station agent alike: it imports neither, nor any app layer but the pure domain (the crane it draws).',
      severity: 'error',
      from: { path: '^media/' },
      to: { path: '^(server/|agent/|src/(?!domain/))' },
    },
    {
      name: 'server-never-imports-the-agent',
      severity: 'error',
      comment: 'The server knows an agent only through the protocol (docs/agent-protocol.md).',
      from: { path: '^server/' },
      to: { path: '^agent/' },
    },
    {
      name: 'server-render-enters-at-the-process-entry',
      severity: 'error',
      comment:
        "Only the process entry hands the server the app's server-render composition root (docs/server-rendering.md).",
      from: { path: '^server/', pathNot: '^server/main\\.ts$' },
      to: { path: '^src/main/' },
    },
    {
      name: 'server-routes-are-registered-by-the-app-only',
      severity: 'error',
      comment:
        "Routes translate HTTP to service calls and only the server's API part (server/composition/api.plugin.ts) registers them: what a route shares with a service lives outside server/routes/.",
      from: { path: '^server/', pathNot: '^server/(routes/|composition/api\\.plugin\\.ts$)' },
      to: { path: '^server/routes/' },
    },
    {
      name: 'client-never-imports-server',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^server/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
    skipAnalysisNotInRules: true,
  },
};
