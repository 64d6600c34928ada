// A fleet (docs/deploy.md): three `structure serve` replicas behind haproxy, sharing one
// redis-server (stores.shared), in front of a simulator that enforces 600 requests/min. 1 200
// requests go through the official OpenAI SDK; one replica is SIGKILLed mid-run and the SDK's
// own retries (502 from haproxy, connection errors) finish its requests on the others.
// Checks: every request answered exactly once and valid, 0 x 429 at the simulator, at least
// 95 % of the rate used, and no request run twice at the simulator unless the client sent it
// twice (a request cut off by the kill may reach the simulator once per attempt, never more).
// Bounded: everything stops by itself after 240 s.
// Usage: node fleet_test.mjs STRUCTURE_BINARY
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';

import {
  check, failureCount, serverKeyToml, spawnTracked, startProcess, stopAll, versionOf,
} from './harness.mjs';

// haproxy is in /usr/sbin, which a non-root PATH may lack.
function haproxyBinary() {
  return existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy';
}

const binary = process.argv[2];
const TOTAL = 1200;
const RPM = 600;
const CONCURRENCY = 48;
const KILL_AT = 480;  // answers before replica 1 is killed
const KEY = 'key-fleet';

const dir = mkdtempSync(join(tmpdir(), 'structure-fleet-'));
const deadline = setTimeout(() => {
  console.log('FAIL the fleet test ran past its 240 s bound');
  stopAll();
  process.exit(1);
}, 240000);

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitHealthy(url) {
  for (let i = 0; i < 200; ++i) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never became healthy`);
}

console.log(`client: openai ${versionOf('openai')}`);
try {
  const redisPort = await freePort();
  await startProcess(['redis-server', '--port', String(redisPort), '--bind', '127.0.0.1', '--save',
    '', '--appendonly', 'no', '--dir', dir], /Ready to accept connections/);

  const record = join(dir, 'requests.jsonl');
  const sim = await startProcess([binary, 'sim', '--port', '0', '--rpm', String(RPM),
    '--latency-ms', '50', '--record-requests', record]);
  const simUrl = `http://127.0.0.1:${sim.match[1]}`;

  const config = join(dir, 'fleet.toml');
  writeFileSync(config, `
[providers.simulator]
kind = "openai"
model = "sim-1"
[providers.simulator.limits]
requests_per_minute = ${RPM}
max_concurrency = 64

[stores]
shared = "redis://127.0.0.1:${redisPort}/0"
shared_expected_processes = 3

[server]
max_inflight = 1024

${serverKeyToml(KEY, 'fleet')}`);
  const replicas = [];
  for (let i = 0; i < 3; ++i) {
    replicas.push(await startProcess([binary, 'serve', '--config', config, '--port', '0',
      '--base-url', simUrl, '--database', ':memory:']));
  }

  const lbPort = await freePort();
  const haproxyCfg = join(dir, 'haproxy.cfg');
  writeFileSync(haproxyCfg, `
global
  maxconn 4096
defaults
  mode http
  timeout connect 2s
  timeout client 120s
  timeout server 120s
  retries 3
  option redispatch
frontend api
  bind 127.0.0.1:${lbPort}
  default_backend serve
backend serve
  balance roundrobin
  option httpchk GET /healthz
${replicas.map((r, i) => `  server s${i} 127.0.0.1:${r.match[1]} check inter 500ms fall 1 rise 2`).join('\n')}
`);
  spawnTracked([haproxyBinary(), '-db', '-f', haproxyCfg]);
  await waitHealthy(`http://127.0.0.1:${lbPort}/healthz`);

  // The SDK's own retries; attempts counted per request id through its fetch.
  const attempts = new Map();
  const client = new OpenAI({
    apiKey: KEY,
    baseURL: `http://127.0.0.1:${lbPort}/v1`,
    maxRetries: 5,
    fetch: (url, init) => {
      const id = init?.headers instanceof Headers ? init.headers.get('x-request-tag')
        : init?.headers?.['x-request-tag'];
      if (id) attempts.set(id, (attempts.get(id) ?? 0) + 1);
      return fetch(url, init);
    },
  });
  const schema = {
    type: 'object',
    properties: { name: { type: 'string' }, count: { type: 'integer', minimum: 0 } },
    required: ['name', 'count'],
    additionalProperties: false,
  };
  const answers = new Map();
  const completionIds = new Set();
  const errors = [];
  let next = 0;
  let done = 0;
  let killed = false;
  const started = Date.now();
  async function worker() {
    while (next < TOTAL) {
      const i = next++;
      const tag = `REQ-${i}`;
      try {
        const c = await client.chat.completions.create({
          model: 'default:fast',
          messages: [{ role: 'user', content: `${tag}: Ada filed ${i % 7} reports` }],
          response_format: { type: 'json_schema', json_schema: { name: 'r', schema, strict: true } },
        }, { headers: { 'x-request-tag': tag } });
        answers.set(tag, (answers.get(tag) ?? 0) + 1);
        completionIds.add(c.id);
        const obj = JSON.parse(c.choices[0].message.content);
        if (typeof obj.name !== 'string' || !Number.isInteger(obj.count)) {
          errors.push(`${tag}: invalid object ${c.choices[0].message.content}`);
        }
      } catch (e) {
        errors.push(`${tag}: ${e?.status ?? ''} ${e?.message ?? e}`);
      }
      if (++done === KILL_AT && !killed) {
        killed = true;
        replicas[1].proc.kill('SIGKILL');
        console.log(`replica 1 SIGKILLed after ${done} answers`);
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (Date.now() - started) / 1000;

  const stats = await (await fetch(`${simUrl}/stats`)).json();
  const atSim = new Map();
  for (const line of readFileSync(record, 'utf8').split('\n')) {
    const m = line.match(/REQ-(\d+):/);
    if (m) atSim.set(`REQ-${m[1]}`, (atSim.get(`REQ-${m[1]}`) ?? 0) + 1);
  }
  let retried = 0;
  let twiceAtSim = 0;
  let overrun = 0;
  for (let i = 0; i < TOTAL; ++i) {
    const tag = `REQ-${i}`;
    const a = attempts.get(tag) ?? 0;
    const s = atSim.get(tag) ?? 0;
    if (a > 1) ++retried;
    if (s > 1) ++twiceAtSim;
    if (s > a || s < 1) ++overrun;
  }
  const simRequests = stats.requests.total;
  const usedShare = simRequests / seconds / (RPM / 60);
  console.log(`${TOTAL} requests in ${seconds.toFixed(1)} s, ${simRequests} at the simulator ` +
    `(${(usedShare * 100).toFixed(1)} % of ${RPM}/min), ${retried} retried by the SDK, ` +
    `${twiceAtSim} reached the simulator twice`);
  check(errors.length === 0, `every request succeeded (${errors.slice(0, 5).join('; ')})`);
  check(answers.size === TOTAL && [...answers.values()].every((n) => n === 1),
    `every request answered exactly once (${answers.size} answered)`);
  check(completionIds.size === TOTAL, `${completionIds.size} distinct completion ids`);
  check((stats.responses['429'] ?? 0) === 0 && stats.rate_limited === 0,
    `0 x 429 at the simulator (${stats.responses['429'] ?? 0}, rate_limited ${stats.rate_limited})`);
  check(usedShare >= 0.95, `at least 95 % of the rate used (${(usedShare * 100).toFixed(1)} %)`);
  check(overrun === 0,
    `no request ran at the simulator more often than the client sent it (${overrun})`);
  check(killed, 'a replica was killed mid-run');
} catch (e) {
  check(false, `fleet: ${e?.stack ?? e}`);
} finally {
  clearTimeout(deadline);
  stopAll();
  rmSync(dir, { recursive: true, force: true });
}
console.log(failureCount() ? `fleet: ${failureCount()} check(s) failed` : 'fleet: all checks passed');
process.exit(failureCount() ? 1 : 0);
