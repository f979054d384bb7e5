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
