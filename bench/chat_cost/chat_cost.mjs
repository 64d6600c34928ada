// CPU per call of `structure serve`'s OpenAI-compatible endpoints (POST /v1/chat/completions,
// POST /v1/responses) against its native endpoint (POST /v1/structure), on the same simulator, in one run, at
// C = 64 and C = 256; and against the official `openai` SDK (Node) calling the simulator
// directly (sdk_direct.mjs, its own process). docs/server.md, "Cost".
//
//   node bench/chat_cost/chat_cost.mjs build/release/apps/structure [--calls N] [--rounds R]
//
// serve's CPU is read from /proc/PID/stat (every thread) before and after each measured batch
// of N calls (after a warm-up batch that opens the connections and fills the caches); the two
// endpoints alternate round by round so drift hits both alike; the medians are reported. The
// load comes from this process (fetch, C calls in flight), which is not measured.
//
// The floor: when nginx is installed, the same chat calls also go through nginx as a plain
// reverse proxy to the simulator (one worker, keep-alive both ways, no logging): it reads
// each request and relays it and its answer without parsing a body, which is the least any
// server between a client and a provider can spend. Its worker's CPU per call is the
// `nginx relay` column, measured in the same rounds.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
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

// A process's CPU so far (every thread): { all, user } in seconds (user: outside the kernel).
function cpu(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { all: (Number(f[11]) + Number(f[12])) / TICKS, user: Number(f[11]) / TICKS };
}

// Microseconds per call between two cpu() readings: { all, user }.
const perCall = (a, b, calls) => ({ all: ((b.all - a.all) / calls) * 1e6,
  user: ((b.user - a.user) / calls) * 1e6 });

const NGINX = '/usr/sbin/nginx';

function freePort() {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// nginx as a reverse proxy in front of `upstream` (host:port); returns its URL and worker pid.
async function startRelay(dir, upstream) {
  const port = await freePort();
  const conf = join(dir, 'nginx.conf');
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((t) => `${t}_temp_path ${join(dir, t)};`).join(' ');
  writeFileSync(conf, `worker_processes 1; daemon on; pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'nginx.err')};
events { worker_connections 8192; }
http { access_log off; ${temp}
  upstream sim { server ${upstream}; keepalive 1024; }
  server { listen 127.0.0.1:${port}; keepalive_requests 1000000;
    location / { proxy_pass http://sim; proxy_http_version 1.1; proxy_set_header Connection ""; } } }
`);
  const r = spawnSync(NGINX, ['-c', conf, '-p', dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`nginx: ${r.stderr}`);
  const master = readFileSync(join(dir, 'nginx.pid'), 'utf8').trim();
  const worker = readFileSync(`/proc/${master}/task/${master}/children`, 'utf8').trim().split(/\s+/)[0];
  return { url: `http://127.0.0.1:${port}`, worker: Number(worker), master: Number(master) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dir = mkdtempSync(join(tmpdir(), 'structure-chat-cost-'));
const url = ({ match }) => `http://127.0.0.1:${match[1]}`;
let relay = null;
try {
  const sim = await startProcess([binary, 'sim', '--port', '0', '--latency-ms', '20']);
  sim.url = url(sim);
  const config = join(dir, 'bench.toml');
  writeFileSync(config, serveToml);
  const serve = await startProcess([binary, 'serve', '--config', config, '--port', '0',
    '--base-url', sim.url, '--database', ':memory:']);
  serve.url = url(serve);
  relay = existsSync(NGINX) ? await startRelay(dir, sim.url.replace('http://', '')) : null;
  const relayBody = JSON.stringify({
    model: 'sim-1',
    messages: [{ role: 'user', content: prompt }],
    response_format: { type: 'json_schema', json_schema: { name: 'ticket', schema, strict: false } },
  });
  const rows = [];
  for (const c of [64, 256]) {
    const per = { structure: [], chat: [], responses: [], relay: [], chatUser: [], relayUser: [] };
    await load(`${serve.url}/v1/structure`, bodies.structure, c * 4, c);
    await load(`${serve.url}/v1/chat/completions`, bodies.chat, c * 4, c);
    await load(`${serve.url}/v1/responses`, bodies.responses, c * 4, c);
    if (relay) await load(`${relay.url}/v1/chat/completions`, relayBody, c * 4, c);
    for (let r = 0; r < ROUNDS; ++r) {
      for (const [name, path] of [['structure', '/v1/structure'], ['chat', '/v1/chat/completions'],
        ['responses', '/v1/responses']]) {
        const before = cpu(serve.proc.pid);
        await load(`${serve.url}${path}`, bodies[name], CALLS, c);
        const used = perCall(before, cpu(serve.proc.pid), CALLS);
        per[name].push(used.all);
        if (name === 'chat') per.chatUser.push(used.user);
      }
      if (relay) {
        const before = cpu(relay.worker);
        await load(`${relay.url}/v1/chat/completions`, relayBody, CALLS, c);
        const used = perCall(before, cpu(relay.worker), CALLS);
        per.relay.push(used.all);
        per.relayUser.push(used.user);
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
    rows.push({ c, structure: median(per.structure), chat: median(per.chat),
      responses: median(per.responses), sdk: sdk.us_per_call,
      relay: relay ? median(per.relay) : NaN, chatUser: median(per.chatUser),
      relayUser: relay ? median(per.relayUser) : NaN, sdkUser: sdk.user_us_per_call });
  }
  const sdkVersion = JSON.parse(readFileSync(join(here, '..', '..', 'tests', 'server',
    'openai_clients', 'node_modules', 'openai', 'package.json'), 'utf8')).version;
  console.log(`serve CPU per call (us), ${CALLS} calls per round, median of ${ROUNDS} rounds; ` +
    `openai ${sdkVersion} on Node ${process.version}`);
  console.log('| C | /v1/structure | /v1/chat/completions | ratio | /v1/responses | ratio | ' +
    'openai SDK direct | SDK / chat | nginx relay (floor) | SDK / nginx |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.c} | ${r.structure.toFixed(1)} | ${r.chat.toFixed(1)} | ` +
      `${(r.chat / r.structure).toFixed(2)}x | ${r.responses.toFixed(1)} | ` +
      `${(r.responses / r.structure).toFixed(2)}x | ${r.sdk.toFixed(1)} | ` +
      `${(r.sdk / r.chat).toFixed(1)}x | ${r.relay.toFixed(1)} | ${(r.sdk / r.relay).toFixed(1)}x |`);
  }
  // Where the time goes: outside the kernel (parsing, lowering, validating, the HTTP stacks)
  // and in it (sockets, wake-ups). The SDK's tenth is the target for a chat call.
  console.log('\n| C | chat: user + kernel | nginx relay: user + kernel | SDK: user + kernel | ' +
    'SDK / 10 |');
  console.log('|---|---|---|---|---|');
  const split = (all, user) => `${user.toFixed(1)} + ${(all - user).toFixed(1)}`;
  for (const r of rows) {
    console.log(`| ${r.c} | ${split(r.chat, r.chatUser)} | ${split(r.relay, r.relayUser)} | ` +
      `${split(r.sdk, r.sdkUser)} | ${(r.sdk / 10).toFixed(1)} |`);
  }
} finally {
  stopAll('SIGTERM');
  if (relay) process.kill(relay.master, 'SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
