#!/usr/bin/env node
// Validates SARIF files with two independent checkers, both pinned in
// package-lock.json (installed by ./build.sh deps: npm ci --ignore-scripts):
//   1. the SARIF 2.1.0 JSON schema (the copy Microsoft ships with the
//      multitool), through Ajv (draft 2020-12, all errors, formats);
//   2. Microsoft's SARIF Multitool `validate` (the SARIF SDK's own rules:
//      URIs, rule references, fingerprints, regions, ...), a self-contained
//      .NET executable in @microsoft/sarif-multitool-<platform>.
// Any schema error, or any multitool result at level error or warning,
// fails the file. Usage: node validate.js FILE.sarif...
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const platformPkg = { linux: 'linux', darwin: 'darwin', win32: 'win32' }[process.platform];
const toolDir = path.join(__dirname, 'node_modules', '@microsoft', `sarif-multitool-${platformPkg}`);
const exe = path.join(toolDir, process.platform === 'win32' ? 'Sarif.Multitool.exe' : 'Sarif.Multitool');
const schemaPath = path.join(toolDir, 'sarif-2.1.0.json');

function die(msg) {
  console.error(`validate.js: ${msg}`);
  process.exit(2);
}

if (!fs.existsSync(exe) || !fs.existsSync(schemaPath))
  die(`the SARIF Multitool is not installed in ${toolDir}: run ./build.sh deps`);
// npm ci --ignore-scripts skips the package's postinstall (chmod u+x).
try {
  fs.accessSync(exe, fs.constants.X_OK);
} catch (e) {
  fs.chmodSync(exe, 0o755);
}

const Ajv2020 = require('ajv/dist/2020');
const addFormats = require('ajv-formats');
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const validateSchema = ajv.compile(JSON.parse(fs.readFileSync(schemaPath, 'utf8')));

const files = process.argv.slice(2);
if (!files.length)
  die('usage: node validate.js FILE.sarif...');

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kcheck-sarif-'));
const env = Object.assign({}, process.env, {
  DOTNET_SYSTEM_GLOBALIZATION_INVARIANT: '1',
  DOTNET_CLI_TELEMETRY_OPTOUT: '1',
  DOTNET_BUNDLE_EXTRACT_BASE_DIR: path.join(work, 'dotnet'),
});
let failures = 0;
for (const file of files) {
  let doc;
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    console.error(`${file}: not JSON: ${e.message}`);
    failures++;
    continue;
  }
  let bad = 0;
  if (!validateSchema(doc)) {
    for (const e of validateSchema.errors)
      console.error(`${file}: schema: ${e.instancePath || '/'}: ${e.message} ${JSON.stringify(e.params)}`);
    bad++;
  }
  const out = path.join(work, path.basename(file) + '.validation.sarif');
  const r = spawnSync(exe, ['validate', file, '--output', out, '--log', 'ForceOverwrite'], { env, encoding: 'utf8' });
  if (r.error || r.status !== 0 || !fs.existsSync(out)) {
    console.error(`${file}: the multitool failed (status ${r.status}): ${r.error || ''}\n${r.stdout}${r.stderr}`);
    failures++;
    continue;
  }
  const log = JSON.parse(fs.readFileSync(out, 'utf8'));
  for (const run of log.runs || []) {
    for (const inv of run.invocations || []) {
      for (const n of inv.toolExecutionNotifications || []) {
        console.error(`${file}: multitool: ${n.level}: ${n.message && n.message.text}`);
        if (n.level === 'error') bad++;
      }
      if (inv.executionSuccessful === false) bad++;
    }
    for (const res of run.results || []) {
      const level = res.level || 'warning';
      const loc = (((res.locations || [])[0] || {}).physicalLocation || {}).region || {};
      const text = res.message && (res.message.text || (res.message.arguments || []).join(', '));
      console.error(`${file}:${loc.startLine || 0}:${loc.startColumn || 0}: multitool ${level} ${res.ruleId}: ${text}`);
      if (level === 'error' || level === 'warning') bad++;
    }
  }
  if (bad) failures++;
  else console.log(`${file}: valid SARIF 2.1.0 (schema and multitool)`);
}
fs.rmSync(work, { recursive: true, force: true });
console.log(`${files.length - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
