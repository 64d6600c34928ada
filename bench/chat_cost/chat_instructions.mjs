// Instructions per call of `structure serve` on POST /v1/chat/completions (or /v1/structure),
// under callgrind: repeatable on a shared machine where CPU time is not. docs/server.md, "Cost".
//
//   node bench/chat_cost/chat_instructions.mjs build/rel/apps/structure
//       [--calls N] [--base B] [--concurrency C] [--endpoint chat|structure|responses] [--keep DIR]
//
// Runs serve under `valgrind --tool=callgrind` twice in front of the simulator (not measured):
// B warm-up calls + B calls, then B warm-up calls + B + N calls, all at C in flight. Start-up,
// warm-up and shutdown cost the same in both runs, so (I2 - I1) / N is the cost of one call.
// Prints that and the difference per call by group (libcurl, Boost.Beast/Asio, CAF, simdjson,
// malloc/free, ours: a function whose name mentions structure::, the rest of libc/libstdc++,
// other), from callgrind_annotate's self cost per function; --functions adds the 80 costliest
// functions. --keep DIR keeps both callgrind files there.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startProcess, stopAll } from '../../tests/server/openai_clients/harness.mjs';
import { bodies, load, paths, serveToml } from './workload.mjs';

const binary = process.argv[2];
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const CALLS = Number(arg('--calls', 1000));
const BASE = Number(arg('--base', 200));
const C = Number(arg('--concurrency', 64));
const ENDPOINT = arg('--endpoint', 'chat');
const KEEP = arg('--keep', '');

if (!(ENDPOINT in paths)) throw new Error(`--endpoint: chat, structure or responses (was ${ENDPOINT})`);
const path = paths[ENDPOINT];
const body = bodies[ENDPOINT];

// One serve under callgrind: warm-up, `calls` measured calls, SIGTERM; the callgrind file.
async function run(dir, simUrl, calls, name) {
  const out = join(dir, `${name}.out`);
  const serve = await startProcess(['valgrind', '--tool=callgrind', `--callgrind-out-file=${out}`,
    binary, 'serve', '--config', join(dir, 'bench.toml'), '--port', '0', '--base-url', simUrl,
    '--database', ':memory:']);
  const url = `http://127.0.0.1:${serve.match[1]}${path}`;
  await load(url, body, BASE, C);
  await load(url, body, calls, C);
  const exited = new Promise((resolve) => serve.proc.on('exit', resolve));
  serve.proc.kill('SIGTERM');
  await exited;
  return out;
}

// Self cost by function: Map name -> instructions.
function functions(file) {
  const text = execFileSync('callgrind_annotate', ['--inclusive=no', '--threshold=100', file],
    { maxBuffer: 1 << 28 }).toString();
  const map = new Map();
  for (const line of text.split('\n')) {
    const m = line.match(/^\s*([\d,]+)\s+\([^)]*\)\s+(.*)$/) || line.match(/^\s*([\d,]+)\s+(\S.*)$/);
    if (!m || m[2].startsWith('PROGRAM TOTALS')) continue;
    map.set(m[2], (map.get(m[2]) || 0) + Number(m[1].replace(/,/g, '')));
  }
  return map;
}

function total(file) {
  const text = execFileSync('callgrind_annotate', ['--threshold=1', file]).toString();
  return Number(text.match(/([\d,]+)\s+\(100\.0%\)\s+PROGRAM TOTALS/)[1].replace(/,/g, ''));
}

const groups = [
  ['libcurl', /libcurl|:Curl_|:curl_/],
  ['Boost.Beast/Asio', /boost::(beast|asio)/],
  ['CAF', /caf::|libcaf/],
  ['simdjson', /simdjson/],
  ['malloc/free', /:(malloc|free|_int_malloc|_int_free|cfree|realloc|calloc|operator new|operator delete)|malloc\.c/],
  ['ours', /structure::/],
  ['libc/libstdc++ other', /libc\.so|libc-|libstdc\+\+|\/string|\/memmove|\/memcpy|\/strlen|\/memset|\/memchr|\/memcmp|\/strchr/],
];
function group(name) {
  for (const [g, re] of groups) if (re.test(name)) return g;
  return 'other';
}

const dir = mkdtempSync(join(tmpdir(), 'structure-chat-instr-'));
try {
  const sim = await startProcess([binary, 'sim', '--port', '0', '--latency-ms', '20']);
  const simUrl = `http://127.0.0.1:${sim.match[1]}`;
  writeFileSync(join(dir, 'bench.toml'), serveToml);
  const a = await run(dir, simUrl, BASE, 'short');
  const b = await run(dir, simUrl, BASE + CALLS, 'long');
  const perCall = (total(b) - total(a)) / CALLS;
  const fa = functions(a);
  const fb = functions(b);
  const byGroup = new Map();
  const byFunction = [];
  for (const [name, n] of fb) {
    const d = (n - (fa.get(name) || 0)) / CALLS;
    byGroup.set(group(name), (byGroup.get(group(name)) || 0) + d);
    byFunction.push([d, name]);
  }
  console.log(`serve, ${path}, C = ${C}: ${Math.round(perCall)} instructions per call ` +
    `(${CALLS} calls more in the second run)`);
  console.log('| group | instructions per call |');
  console.log('|---|---|');
  for (const [g, n] of [...byGroup].sort((x, y) => y[1] - x[1]))
    console.log(`| ${g} | ${Math.round(n)} |`);
  if (process.argv.includes('--functions')) {
    byFunction.sort((x, y) => y[0] - x[0]);
    for (const [d, name] of byFunction.slice(0, 80)) console.log(`${Math.round(d)}\t${name}`);
  }
  if (KEEP) {
    copyFileSync(a, join(KEEP, 'short.out'));
    copyFileSync(b, join(KEEP, 'long.out'));
  }
} finally {
  stopAll('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
