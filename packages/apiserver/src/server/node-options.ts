/**
 * The V8 options orch-apiserver runs with as a service (`deploy/systemd/orch-apiserver.service`, and
 * the apiserver processes the e2e tests and the benchmarks start): semi-spaces of up to 64 MB for
 * the young generation, instead of Node's 16 MB. Every write allocates its decoded body, the new
 * object, its comparisons and its encodings, and the objects it replaces in the watch cache die
 * young too; a larger young generation scavenges them less often and promotes fewer of them. The
 * space grows only under load (an idle apiserver keeps its few MB). Measured with `bench/apply.js`,
 * alternating runs: apiserver CPU per strategic merge patch 811–927 µs with Node's default and
 * 543–730 µs with these options. `npm start`, which runs the whole suite on one machine within a
 * memory budget, keeps its own smaller setting.
 */
export const apiserverNodeOptions: readonly string[] = ['--max-semi-space-size=64'];
