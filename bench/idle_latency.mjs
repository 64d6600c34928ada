// The latency a gateway adds, the method of the public llm-gateway-bench: requests on loopback
// against a mock upstream (`structure sim`), the targets interleaved round by round, the median
// of the round medians. Targets: the simulator directly, `structure serve`'s
// /v1/chat/completions in front of it, and the Portkey AI gateway (npm @portkey-ai/gateway,
// bench/portkey, `npm ci` there) in front of it, when installed. At C = 1 (one request at a
// time), 8 and 64. Also the CPU per call of each gateway process (/proc/PID/stat, every
// thread). docs/performance.md holds the latest table.
//
//   node bench/idle_latency.mjs build/release/apps/structure [--calls N] [--rounds R]
//        [--latency-ms L]
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { spawnTracked, startProcess, stopAll } from '../tests/server/openai_clients/harness.mjs';
import { KEY, bodies, prompt, schema, serveToml } from './chat_cost/workload.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const binary = process.argv[2];
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const CALLS = arg('--calls', 400);
const ROUNDS = arg('--rounds', 5);
const LATENCY_MS = arg('--latency-ms', 0);
const TICKS = 100;  // sysconf(_SC_CLK_TCK) on Linux
const PORTKEY = join(here, 'portkey', 'node_modules', '@portkey-ai', 'gateway', 'build',
  'start-server.js');

const cpu = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const x = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(x[11]) + Number(x[12])) / TICKS;
};
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const pct = (xs, p) => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const median = (xs) => pct(xs, 0.5);

function freePort() {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitFor(url) {
  for (let i = 0; i < 200; ++i) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer`);
}

// N calls with C in flight; the latency of each in milliseconds.
async function timed(url, headers, body, calls, concurrency) {
  let next = 0;
  const ms = [];
  async function worker() {
    while (next < calls) {
      ++next;
      const t = process.hrtime.bigint();
      const r = await fetch(url, { method: 'POST', headers, body });
      const text = await r.text();
      if (r.status !== 200) throw new Error(`${url}: ${r.status} ${text}`);
      ms.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return ms;
}

const dir = mkdtempSync(join(tmpdir(), 'structure-idle-latency-'));
try {
  const sim = await startProcess([binary, 'sim', '--port', '0', '--latency-ms',
    String(LATENCY_MS)]);
  const simUrl = `http://127.0.0.1:${sim.match[1]}`;
  const config = join(dir, 'bench.toml');
  writeFileSync(config, serveToml);
  const serve = await startProcess([binary, 'serve', '--config', config, '--port', '0',
    '--base-url', simUrl, '--database', ':memory:']);
  const serveUrl = `http://127.0.0.1:${serve.match[1]}`;
  // The same request as the chat body, in the form the upstream itself takes (not strict: the
  // upstream's strict mode refuses maxLength, which structure lowers away and checks itself).
  const direct = JSON.stringify({
    model: 'sim-1',
    messages: [{ role: 'user', content: prompt }],
    response_format: { type: 'json_schema', json_schema: { name: 'ticket', schema, strict: false } },
  });
  const json = { 'content-type': 'application/json' };
  const targets = [
    { name: 'direct', url: `${simUrl}/v1/chat/completions`, headers: json, body: direct },
    { name: 'structure', url: `${serveUrl}/v1/chat/completions`, pid: serve.proc.pid,
      headers: { ...json, authorization: `Bearer ${KEY}` }, body: bodies.chat },
  ];
  if (existsSync(PORTKEY)) {
    const port = await freePort();
    const proc = spawnTracked([process.execPath, PORTKEY, `--port=${port}`, '--headless']);
    await waitFor(`http://127.0.0.1:${port}/`);
    targets.push({ name: 'portkey', url: `http://127.0.0.1:${port}/v1/chat/completions`,
      pid: proc.pid, body: direct, headers: { ...json, authorization: 'Bearer sk-bench',
        'x-portkey-provider': 'openai', 'x-portkey-custom-host': `${simUrl}/v1` } });
  }
  const rows = [];
  for (const c of [1, 8, 64]) {
    const per = Object.fromEntries(targets.map((t) => [t.name, { p50: [], p99: [], cpu: [] }]));
    for (const t of targets) await timed(t.url, t.headers, t.body, Math.max(50, c * 4), c);
    for (let r = 0; r < ROUNDS; ++r) {
      for (const t of targets) {
        const before = t.pid ? cpu(t.pid) : 0;
        const ms = await timed(t.url, t.headers, t.body, CALLS, c);
        per[t.name].p50.push(median(ms));
        per[t.name].p99.push(pct(ms, 0.99));
        if (t.pid) per[t.name].cpu.push(((cpu(t.pid) - before) / CALLS) * 1e6);
      }
    }
    const base = median(per.direct.p50);
    const baseP99 = median(per.direct.p99);
    for (const t of targets) {
      const p = per[t.name];
      rows.push({ c, name: t.name, p50: median(p.p50), p99: median(p.p99),
        added: median(p.p50) - base, addedP99: median(p.p99) - baseP99,
        cpu: t.pid ? median(p.cpu) : NaN });
    }
  }
  console.log(`${CALLS} calls per round, median of ${ROUNDS} rounds, upstream latency ` +
    `${LATENCY_MS} ms, Node ${process.version}`);
  console.log('| C | target | p50 ms | p99 ms | added p50 ms | added p99 ms | CPU per call us |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.c} | ${r.name} | ${r.p50.toFixed(3)} | ${r.p99.toFixed(3)} | ` +
      `${r.name === 'direct' ? '-' : r.added.toFixed(3)} | ` +
      `${r.name === 'direct' ? '-' : r.addedP99.toFixed(3)} | ` +
      `${Number.isNaN(r.cpu) ? '-' : r.cpu.toFixed(0)} |`);
  }
} finally {
  stopAll('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
