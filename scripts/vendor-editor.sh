#!/usr/bin/env bash
# Rebuilds the vendored code editor from npm (needs Node 20 and the npm registry):
#   grader/web/static/vendor/codemirror/editor.bundle.js   CodeMirror 6 and its Python mode,
#       bundled by esbuild (frontend/editor/build.mjs) from frontend/editor/src/editor.js,
#       which defines window.GraderEditor
#   grader/web/static/vendor/codemirror/LICENSES.txt        the licence of every package in it
# The versions are the ones pinned in frontend/editor/package-lock.json; nothing at test or
# run time needs npm.
set -euo pipefail
cd "$(dirname "$0")/../frontend/editor"
out=../../grader/web/static/vendor/codemirror
mkdir -p "$out"
npm ci --no-audit --no-fund --silent
node build.mjs "$out/editor.bundle.js" node_modules/.editor-meta.json
# The licence of each package whose code went into the bundle, with its name and version.
node - "$out/LICENSES.txt" <<'JS'
const fs = require("fs");
const path = require("path");
const meta = JSON.parse(fs.readFileSync("node_modules/.editor-meta.json", "utf8"));
const names = new Set();
for (const input of Object.keys(meta.inputs)) {
  const match = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (match) names.add(match[1]);
}
const parts = ["Third-party code in editor.bundle.js (built by scripts/vendor-editor.sh)\n"];
for (const name of [...names].sort()) {
  const folder = path.join("node_modules", name);
  const info = JSON.parse(fs.readFileSync(path.join(folder, "package.json"), "utf8"));
  const file = fs.readdirSync(folder).find((f) => /^(licen[cs]e|copying)/i.test(f));
  if (!file) throw new Error(`${name} has no licence file`);
  const text = fs.readFileSync(path.join(folder, file), "utf8").trim();
  parts.push(`${"=".repeat(72)}\n${name} ${info.version} (${info.license})\n\n${text}\n`);
}
fs.writeFileSync(process.argv[2], parts.join("\n"));
console.log(`editor.bundle.js: ${names.size} packages: ${[...names].sort().join(", ")}`);
JS
