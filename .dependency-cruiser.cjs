/**
 * The architecture, checked (npm run lint; docs/architecture.md says the same in words):
 * the core (src/) is a kernel, a foundation above it and the domains above both; a layer imports
 * only those below it; a domain is entered through its door (its *.service.ts and *.schemas.ts);
 * no module imports itself back through others; the core knows no transport.
 */
const DOOR = '[.](service|schemas)[.]ts$';
const DOMAIN = '^src/(?!kernel/|foundation/)([^/]+)/';

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'Files that import each other in a loop.',
      severity: 'error',
      from: { path: '^(src|rest|schema|app)/' },
      to: { circular: true },
    },
    {
      name: 'no-cycle-between-modules',
      comment: 'Folders of src/ that import each other in a loop: untie it by moving the piece to the folder that owns it.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { path: '^src/', circular: true },
    },
    {
      name: 'kernel-imports-only-kernel',
      comment:
        'The kernel (errors, ids, config, validation, pagination, logger, database, the shared vocabulary) stands on nothing of ours.',
      severity: 'error',
      from: { path: '^src/kernel/' },
      to: { path: '^(src|rest|schema|app)/', pathNot: '^src/kernel/' },
    },
    {
      name: 'foundation-imports-no-domain',
      comment:
        'The foundation (authentication, policy, the request pipeline, audit, storage, budgets, idempotency, outboxes, mail, uploads) knows no domain.',
      severity: 'error',
      from: { path: '^src/foundation/' },
      to: { path: '^(src|rest|schema|app)/', pathNot: '^src/(kernel|foundation)/' },
    },
    {
      name: 'core-imports-no-transport',
      comment: 'src/ knows neither HTTP nor GraphQL: rest/, schema/, app/ and their frameworks stay out.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: ['^(rest|schema|app)/', '^node_modules/(express|graphql-yoga|@pothos|swagger-ui-express|multer|cors)/'] },
    },
    {
      name: 'domain-entered-through-its-door',
      comment:
        'Another domain reaches a domain only through its *.service.ts and *.schemas.ts; the rest of its folder (internal/ too) is its own.',
      severity: 'error',
      from: { path: DOMAIN },
      to: { path: DOMAIN, pathNot: ['^src/$1/', DOOR] },
    },
    {
      name: 'transport-enters-domains-through-doors',
      comment: 'REST, GraphQL and the composition root reach a domain only through its doors.',
      severity: 'error',
      from: { path: '^(rest|schema|app)/' },
      to: { path: DOMAIN, pathNot: DOOR },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^prisma/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.mjs', '.js'] },
  },
};
