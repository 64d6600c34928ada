// A playground call as something to paste elsewhere: a `structure run` command line, a curl
// command against this server, and an OpenAI-SDK snippet for the server's OpenAI-compatible
// endpoint. The API key is never in them: they read it from $STRUCTURE_API_KEY.

// POSIX shell single quoting: 'it'\''s'.
export function shellQuote(s) {
  return `'${String(s).replace(/'/g, `'\\''`)}'`;
}

// `body` is the request the page sent (without `trace`).
export function runCommand(body) {
  const args = ['structure', 'run', '--prompt', shellQuote(body.prompt)];
  if (body.schema !== undefined) args.push('--schema', `<(printf '%s' ${shellQuote(JSON.stringify(body.schema))})`);
  if (body.schemaName) args.push('--schema-name', shellQuote(body.schemaName));
  if (body.schemaText) args.push('--schema-text', shellQuote(body.schemaText));
  if (body.model) args.push('--model', shellQuote(body.model));
  if (body.maxLoops) args.push('--max-loops', String(body.maxLoops));
  if (body.evidence) args.push('--evidence', body.evidence);
  if (body.finalTool) args.push('--final-tool');
  if (body.tenant) args.push('--tenant', shellQuote(body.tenant));
  if (body.project) args.push('--project', shellQuote(body.project));
  return `${args.join(' ')}   # add the server's --config FILE`;
}

export function curlCommand(root, body) {
  return [
    `curl -sS ${shellQuote(`${root}/v1/structure`)} \\`,
    `  -H "Authorization: Bearer $STRUCTURE_API_KEY" -H 'Content-Type: application/json' \\`,
    `  --data-binary ${shellQuote(JSON.stringify(body))}`,
  ].join('\n');
}

function pyString(s) {
  return JSON.stringify(String(s));
}

// Python literal for a JSON value (true/false/null spelled the Python way).
export function pyValue(v, indent = '') {
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'string') return pyString(v);
  if (typeof v === 'number') return String(v);
  const inner = `${indent}    `;
  if (Array.isArray(v)) {
    if (!v.length) return '[]';
    return `[\n${v.map((x) => inner + pyValue(x, inner)).join(',\n')},\n${indent}]`;
  }
  const keys = Object.keys(v);
  if (!keys.length) return '{}';
  return `{\n${keys.map((k) => `${inner}${pyString(k)}: ${pyValue(v[k], inner)}`).join(',\n')},\n${indent}}`;
}

// `schema` is the JSON Schema the call used (inline, or the registry entry's); `name` the
// json_schema name.
export function openaiSnippet(root, body, schema, name) {
  if (!schema) {
    return '# A schema described in words has no response_format form: use the native API (curl above).';
  }
  const jsonSchema = { name: (name || 'result').replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64), strict: true, schema };
  return [
    'import os',
    'from openai import OpenAI',
    '',
    `client = OpenAI(base_url=${pyString(`${root}/v1`)}, api_key=os.environ["STRUCTURE_API_KEY"])`,
    'completion = client.chat.completions.create(',
    `    model=${pyString(body.model || 'default:fast')},`,
    `    messages=[{"role": "user", "content": ${pyString(body.prompt)}}],`,
    `    response_format={"type": "json_schema", "json_schema": ${pyValue(jsonSchema, '    ')}},`,
    ')',
    'print(completion.choices[0].message.content)',
  ].join('\n');
}
