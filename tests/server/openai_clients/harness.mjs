// Shared by the client tests: starts `structure sim` (the scenario in
// tests/data/server/openai/scenario.json) and `structure serve` in front of it on free loopback
// ports, reads the simulator's counters, collects failed checks and reports them.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const dataDir = join(here, '..', '..', 'data', 'server', 'openai');
export const apiKey = 'key-acme';

// The installed version of an npm package of this folder.
export function versionOf(pkg) {
  return JSON.parse(readFileSync(join(here, 'node_modules', pkg, 'package.json'), 'utf8')).version;
}

// Starts `argv` and resolves with {proc, match} once its stdout matches `ready`; its stderr
// goes to ours. Every process started is killed by stopAll() (and at exit).
const started = [];
export function startProcess(argv, ready = /listening on [^:\s]+:(\d+)/) {
  return new Promise((resolve, reject) => {
    const proc = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
    started.push(proc);
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${argv[1]} did not start: ${out}`)), 60000);
    proc.stdout.on('data', (d) => {
      out += d;
      const match = out.match(ready);
      if (match) {
        clearTimeout(timer);
        resolve({ proc, match });
      }
    });
    proc.on('exit', (code) => reject(new Error(`${argv[0]} ${argv[1]} exited ${code}: ${out}`)));
  });
}
// Starts `argv` without waiting for it (its output goes to ours); stopped by stopAll().
export function spawnTracked(argv) {
  const proc = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'inherit', 'inherit'] });
  started.push(proc);
  return proc;
}
export function stopAll(signal = 'SIGKILL') {
  for (const p of started) if (p.exitCode === null && p.signalCode === null) p.kill(signal);
}
process.on('exit', () => stopAll());

// A server prints "listening on HOST:PORT" first: {proc, port}.
async function startListening(argv) {
  const { proc, match } = await startProcess(argv);
  return { proc, port: Number(match[1]) };
}

// The [[server.keys]] entry of `key` for a config file.
export function serverKeyToml(key, tenant) {
  const sha = createHash('sha256').update(key).digest('hex');
  return `[[server.keys]]\nname = "${tenant}"\nsha256 = "${sha}"\ntenant = "${tenant}"\n` +
    'projects = ["*"]\n';
}

// The simulator and the server: { serveUrl (ending in /v1), simUrl, stop() }.
export async function startStack(binary) {
  const sim = await startListening([binary, 'sim', '--port', '0', '--scenario',
    join(dataDir, 'scenario.json')]);
  const simUrl = `http://127.0.0.1:${sim.port}`;
  let serve;
  try {
    serve = await startListening([binary, 'serve', '--config', join(dataDir, 'serve.toml'),
      '--port', '0', '--base-url', simUrl, '--database', ':memory:']);
  } catch (e) {
    sim.proc.kill('SIGKILL');
    throw e;
  }
  return {
    serveUrl: `http://127.0.0.1:${serve.port}/v1`,
    simUrl,
    stop() {
      stopAll('SIGTERM');
    },
  };
}

export async function resetSim(simUrl) {
  await fetch(`${simUrl}/stats/reset`, { method: 'POST' });
}

// {requests, input, output}: what the simulator counted since the last reset.
export async function simCounts(simUrl) {
  const s = await (await fetch(`${simUrl}/stats`)).json();
  return { requests: s.requests.total ?? 0, input: s.tokens.input, output: s.tokens.output };
}

const failures = [];
export function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
}
export function failureCount() {
  return failures.length;
}

// The checks every client makes of a call whose first answer broke the schema's pattern and
// minimum: the object came back valid after a re-ask, and the usage the client saw is the sum
// of every call the simulator answered.
export async function checkReasked(stack, label, object, usage) {
  const counts = await simCounts(stack.simUrl);
  check(object?.ticket === 'T-123' && object?.priority === 2,
    `${label}: valid object after the re-ask (${JSON.stringify(object)})`);
  check(counts.requests === 2, `${label}: the simulator answered 2 calls (${counts.requests})`);
  check(usage?.input === counts.input && usage?.output === counts.output,
    `${label}: usage summed over both calls (client ${JSON.stringify(usage)}, simulator ` +
    `${JSON.stringify(counts)})`);
}

// Runs `body(stack)` against a fresh stack and exits non-zero when a check failed.
export async function run(name, binary, body) {
  let stack;
  try {
    stack = await startStack(binary);
    await body(stack);
  } catch (e) {
    check(false, `${name}: ${e?.stack ?? e}`);
  } finally {
    stack?.stop();
  }
  console.log(failures.length === 0 ? `${name}: all checks passed` :
    `${name}: ${failures.length} check(s) failed`);
  process.exit(failures.length === 0 ? 0 : 1);
}
