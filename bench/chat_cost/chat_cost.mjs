// CPU per call of `structure serve`'s OpenAI-compatible endpoint (POST /v1/chat/completions)
// against its native endpoint (POST /v1/structure), on the same simulator, in one run, at
// C = 64 and C = 256; and against the official `openai` SDK (Node) calling the simulator
// directly (sdk_direct.mjs, its own process). docs/server.md, "Cost".
//
//   node bench/chat_cost/chat_cost.mjs build/release/apps/structure [--calls N] [--rounds R]
//
// serve's CPU is read from /proc/PID/stat (every thread) before and after each measured batch
// of N calls (after a warm-up batch that opens the connections and fills the caches); the two
// endpoints alternate round by round so drift hits both alike; the medians are reported. The
// load comes from this process (fetch, C calls in flight), which is not measured.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startProcess, stopAll } from '../../tests/server/openai_clients/harness.mjs';
import { bodies, load, prompt, schema, serveToml } from './workload.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const binary = process.argv[2];
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const CALLS = arg('--calls', 4000);
const ROUNDS = arg('--rounds', 3);
const TICKS = 100;  // sysconf(_SC_CLK_TCK) on Linux

function cpuSeconds(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / TICKS;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dir = mkdtempSync(join(tmpdir(), 'structure-chat-cost-'));
const url = ({ match }) => `http://127.0.0.1:${match[1]}`;
try {
  const sim = await startProcess([binary, 'sim', '--port', '0', '--latency-ms', '20']);
  sim.url = url(sim);
  const config = join(dir, 'bench.toml');
  writeFileSync(config, serveToml);
  const serve = await startProcess([binary, 'serve', '--config', config, '--port', '0',
    '--base-url', sim.url, '--database', ':memory:']);
  serve.url = url(serve);
  const rows = [];
  for (const c of [64, 256]) {
    const per = { structure: [], chat: [] };
    await load(`${serve.url}/v1/structure`, bodies.structure, c * 4, c);
    await load(`${serve.url}/v1/chat/completions`, bodies.chat, c * 4, c);
    for (let r = 0; r < ROUNDS; ++r) {
      for (const [name, path] of [['structure', '/v1/structure'], ['chat', '/v1/chat/completions']]) {
        const before = cpuSeconds(serve.proc.pid);
        await load(`${serve.url}${path}`, bodies[name], CALLS, c);
        per[name].push(((cpuSeconds(serve.proc.pid) - before) / CALLS) * 1e6);
      }
    }
    // The official SDK straight at the simulator, in a process of its own.
    const sdk = await new Promise((resolve, reject) => {
      const p = spawn(process.execPath, [join(here, 'sdk_direct.mjs'), `${sim.url}/v1`,
        String(CALLS), String(c), JSON.stringify(schema), prompt], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      p.stdout.on('data', (d) => { out += d; });
      p.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(out))));
    });
    rows.push({ c, structure: median(per.structure), chat: median(per.chat), sdk: sdk.us_per_call });
  }
  const sdkVersion = JSON.parse(readFileSync(join(here, '..', '..', 'tests', 'server',
    'openai_clients', 'node_modules', 'openai', 'package.json'), 'utf8')).version;
  console.log(`serve CPU per call (us), ${CALLS} calls per round, median of ${ROUNDS} rounds; ` +
    `openai ${sdkVersion} on Node ${process.version}`);
  console.log('| C | /v1/structure | /v1/chat/completions | ratio | openai SDK direct | SDK / chat |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.c} | ${r.structure.toFixed(1)} | ${r.chat.toFixed(1)} | ` +
      `${(r.chat / r.structure).toFixed(2)}x | ${r.sdk.toFixed(1)} | ${(r.sdk / r.chat).toFixed(1)}x |`);
  }
} finally {
  stopAll('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
