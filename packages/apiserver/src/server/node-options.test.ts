import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../testing/daemon-process';
import { apiserverNodeOptions } from './node-options';

describe('apiserverNodeOptions', () => {
  it('are the options node gets before the binary in the systemd unit', () => {
    const unit = readFileSync(join(repoRoot, 'deploy', 'systemd', 'orch-apiserver.service'), 'utf8');
    const exec = /^ExecStart=\/usr\/bin\/node (.*?)\$\{ORCH_HOME\}\/packages\/apiserver\//m.exec(unit);
    expect(exec).not.toBeNull();
    expect(exec![1]!.trim().split(/\s+/)).toEqual([...apiserverNodeOptions]);
  });

  it('are options node accepts', () => {
    const out = execFileSync(process.execPath, [...apiserverNodeOptions, '-e', 'process.stdout.write("ok")']);
    expect(out.toString()).toBe('ok');
  });
});
