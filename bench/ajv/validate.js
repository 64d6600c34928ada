// The baseline of bench/validate_vs_ajv.sh: ajv 8 (draft 2020-12, all errors, formats asserted)
// over JSON Lines on stdin, one verdict line per instance, as `structure validate` prints them.
// usage: node validate.js SCHEMA.json < instances.jsonl
'use strict';
const fs = require('fs');
const Ajv2020 = require('ajv/dist/2020').default;
const addFormats = require('ajv-formats').default;

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(fs.readFileSync(process.argv[2], 'utf8')));

const out = [];
let outSize = 0;
function emit(line) {
  out.push(line);
  outSize += line.length;
  if (outSize > (1 << 20)) flush();
}
function flush() {
  if (out.length) fs.writeSync(1, out.join('\n') + '\n');
  out.length = 0;
  outSize = 0;
}

let invalid = false;
function check(line) {
  if (line.trim() === '') return;
  let value;
  try {
    value = JSON.parse(line);
  } catch (e) {
    invalid = true;
    emit(JSON.stringify({ valid: false, error: e.message }));
    return;
  }
  if (validate(value)) {
    emit('{"valid":true}');
  } else {
    invalid = true;
    emit(JSON.stringify({ valid: false, errors: validate.errors }));
  }
}

const block = Buffer.allocUnsafe(1 << 20);
let rest = '';
for (;;) {
  const n = fs.readSync(0, block, 0, block.length, null);
  if (n === 0) break;
  const lines = (rest + block.toString('utf8', 0, n)).split('\n');
  rest = lines.pop();
  for (const line of lines) check(line);
}
check(rest);
flush();
process.exitCode = invalid ? 1 : 0;
