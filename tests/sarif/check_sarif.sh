#!/bin/sh
# Validates kcheck's SARIF with the pinned validators of tools/sarif
# (Microsoft's SARIF Multitool and the SARIF 2.1.0 JSON schema through Ajv):
# the bundled examples, the fixtures (fix objects), and a verify run replayed
# from recorded results (verdicts as result properties).
#   check_sarif.sh KCHECK SOURCE_DIR OUT_DIR
set -eu
kcheck=$1
src=$2
out=$3
mkdir -p "$out"
cd "$src"
if [ ! -f tools/sarif/node_modules/@microsoft/sarif-multitool/package.json ]; then
    echo "the SARIF validators are not installed: run ./build.sh deps" >&2
    exit 1
fi
run() { # name, kcheck arguments...: exit status 0 or 1 (findings) is fine
    name=$1
    shift
    status=0
    "$kcheck" "$@" > "$out/$name.sarif" 2> "$out/$name.err" || status=$?
    if [ "$status" -gt 1 ] && [ "$name" != fixtures ]; then
        echo "kcheck $* exited with $status" >&2
        cat "$out/$name.err" >&2
        exit 1
    fi
}
run examples --format sarif examples
run fixtures --format sarif tests/fixtures
run verify verify --results tests/verify/recorded --format sarif examples
node tools/sarif/validate.js "$out/examples.sarif" "$out/fixtures.sarif" "$out/verify.sarif"
# What the validators cannot know: the content is there.
node -e '
const fs = require("fs");
const [ex, fx, vf] = process.argv.slice(1).map(f => JSON.parse(fs.readFileSync(f, "utf8")));
const fail = m => { console.error("check_sarif: " + m); process.exit(1); };
const run = ex.runs[0], rules = run.tool.driver.rules;
if (!run.results.length) fail("no results for the examples");
for (const r of run.results) {
  const d = rules[r.ruleIndex];
  if (!d || d.id !== r.ruleId) fail("ruleIndex does not point at " + r.ruleId);
  if (!/^[0-9a-f]{16}$/.test(r.partialFingerprints["kcheckFingerprint/v1"])) fail("no fingerprint");
  if (r.locations[0].physicalLocation.artifactLocation.uriBaseId !== "%SRCROOT%") fail("uri not relative");
}
for (const d of rules)
  if (!d.help.markdown.includes("## What it does") || !d.shortDescription.text || !d.defaultConfiguration.level)
    fail("rule " + d.id + " lacks help, description or level");
const fixes = fx.runs[0].results.filter(r => r.fixes);
if (!fixes.length) fail("no fix objects in the fixtures run");
const rep = fixes[0].fixes[0].artifactChanges[0].replacements[0];
if (!rep.deletedRegion.startLine || typeof rep.insertedContent.text !== "string") fail("malformed replacement");
const verdicts = vf.runs[0].results.filter(r => r.properties && r.properties.verify);
if (!verdicts.length) fail("no verify verdicts in the verify run");
for (const r of verdicts)
  if (!["confirmed", "not-reproduced", "inconclusive"].includes(r.properties.verify.status)) fail("bad verdict");
console.log(`content: ${run.results.length} results, ${fixes.length} with fixes, ${verdicts.length} with verdicts`);
' "$out/examples.sarif" "$out/fixtures.sarif" "$out/verify.sarif"
