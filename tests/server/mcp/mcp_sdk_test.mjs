// The MCP server (`structure mcp`) driven by the official MCP TypeScript SDK client over stdio:
// initialize, tools/list, tools/call of `structure` (ok, stale, a bad argument) and
// `list_schemas`, against `structure sim`.
// Usage: node mcp_sdk_test.mjs STRUCTURE_BINARY SCENARIO_FILE [SIM_BASE_URL]
// Without SIM_BASE_URL it starts `structure sim --port 0 --scenario SCENARIO_FILE` itself.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [binary, scenario, givenUrl] = process.argv.slice(2);
if (!binary || !scenario) {
  console.error("usage: node mcp_sdk_test.mjs STRUCTURE_BINARY SCENARIO_FILE [SIM_BASE_URL]");
  process.exit(2);
}

function startSim() {
  return new Promise((resolve, reject) => {
    const sim = spawn(binary, ["sim", "--port", "0", "--scenario", scenario], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    const timer = setTimeout(() => reject(new Error("sim did not start: " + out)), 60000);
    sim.stdout.on("data", (chunk) => {
      out += chunk;
      const m = out.match(/^listening on (\S+):(\d+)\n/);
      if (m) {
        clearTimeout(timer);
        resolve({ sim, url: `http://127.0.0.1:${m[2]}` });
      }
    });
    sim.on("exit", (code) => reject(new Error(`sim exited (${code}): ${out}`)));
  });
}

const ticket = {
  type: "object",
  properties: {
    name: { type: "string" },
    priority: { type: "integer", minimum: 1, maximum: 5 },
  },
  required: ["name", "priority"],
  additionalProperties: false,
};

let sim = null;
let simUrl = givenUrl;
if (!simUrl) {
  const started = await startSim();
  sim = started.sim;
  simUrl = started.url;
}

let failed = false;
const client = new Client({ name: "structure-mcp-test", version: "1.0.0" });
try {
  const transport = new StdioClientTransport({
    command: binary,
    args: ["mcp", "--base-url", simUrl, "--database", ":memory:"],
    stderr: "inherit",
  });
  await client.connect(transport);
  assert.equal(client.getServerVersion().name, "structure");

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  assert.deepEqual(names, ["list_schemas", "structure"]);
  const structure = tools.find((t) => t.name === "structure");
  assert.deepEqual(Object.keys(structure.inputSchema.properties).sort(),
                   ["confidenceThreshold", "evidence", "files", "filesAs", "maxLoops", "prompt",
                    "requireProviderStrictOutput", "schema", "schemaMode"]);
  assert.deepEqual(structure.inputSchema.properties.schemaMode.enum, ["json", "named", "text"]);
  assert.equal(structure.inputSchema.properties.maxLoops.maximum, 10);

  const ok = await client.callTool({
    name: "structure",
    arguments: { prompt: "Mike broke the build, priority 2", schema: ticket },
  });
  assert.equal(ok.isError, false, JSON.stringify(ok));
  assert.equal(ok.structuredContent.status, "ok");
  assert.equal(ok.structuredContent.schemaOrigin, "inline");
  assert.equal(ok.structuredContent.iterations, 1);
  assert.equal(typeof ok.structuredContent.data.name, "string");
  assert.deepEqual(JSON.parse(ok.content[0].text), ok.structuredContent);

  const stale = await client.callTool({
    name: "structure",
    arguments: { prompt: "CASE-STALE Mike", schema: ticket, maxLoops: 2 },
  });
  assert.equal(stale.structuredContent.status, "stale", JSON.stringify(stale));
  assert.deepEqual(stale.structuredContent.errors, ["/priority: value must be <= 5 (was 9)"]);
  assert.equal(stale.structuredContent.iterations, 2);

  const need = await client.callTool({
    name: "structure",
    arguments: { prompt: "CASE-NEED Mike", schema: ticket },
  });
  assert.equal(need.structuredContent.status, "need-more-input", JSON.stringify(need));
  assert.equal(need.structuredContent.need, "the priority is not in the input");

  const bad = await client.callTool({
    name: "structure",
    arguments: { prompt: "x", schema: ticket, maxLoops: 11 },
  });
  assert.equal(bad.isError, true, JSON.stringify(bad));
  assert.match(bad.content[0].text, /maxLoops/);

  const named = await client.callTool({
    name: "structure",
    arguments: { prompt: "x", schema: "no-such-schema", schemaMode: "named" },
  });
  assert.equal(named.isError, true, JSON.stringify(named));
  assert.match(named.content[0].text, /unknown_schema/);

  const list = await client.callTool({ name: "list_schemas", arguments: {} });
  assert.equal(list.isError, false);
  assert.ok(list.structuredContent.schemas.some((s) => s.name === "contact" && s.origin === "registry:bundled"),
            JSON.stringify(list.structuredContent));
  console.log("mcp sdk test: ok (" + names.join(", ") + ")");
} catch (e) {
  failed = true;
  console.error("mcp sdk test: FAILED:", e);
} finally {
  await client.close().catch(() => {});
  if (sim) sim.kill("SIGTERM");
}
process.exit(failed ? 1 : 0);
