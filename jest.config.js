/** @type {import('jest').Config} */
const path = require('path');

const packages = [
  'api',
  'client',
  'component-base',
  'apiserver',
  'scheduler',
  'controller-manager',
  'cloud-controller-manager',
  'node-agent',
];

// Objects the apiserver's stores share with every reader are frozen in tests (see markShared in
// packages/apiserver/src/registry/answer-json.ts): a change to one fails the test that makes it. Set
// here, before the workers start, so the daemons the tests spawn inherit it too.
process.env.ORCH_CACHE_MUTATION_DETECTOR ??= 'true';

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/e2e'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: path.join(__dirname, 'tsconfig.jest.json') }],
  },
  moduleNameMapper: Object.fromEntries(
    packages.map((p) => [`^@orch/${p}$`, `<rootDir>/packages/${p}/src/index.ts`]),
  ),
  testTimeout: 60000,
};
