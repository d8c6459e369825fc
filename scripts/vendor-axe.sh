#!/usr/bin/env bash
# Rebuild the vendored axe-core (the accessibility engine of the browser tests) from npm, at
# the version pinned in frontend/axe/package-lock.json. Tests and runs never need npm.
set -euo pipefail
cd "$(dirname "$0")/../frontend/axe"
npm ci --no-audit --no-fund
target=../../tests/vendor/axe-core
mkdir -p "$target"
cp node_modules/axe-core/axe.min.js node_modules/axe-core/LICENSE \
   node_modules/axe-core/LICENSE-3RD-PARTY.txt "$target/"
node -e 'console.log(require("./node_modules/axe-core/package.json").version)' > "$target/VERSION"
rm -rf node_modules
