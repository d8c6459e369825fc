#!/usr/bin/env bash
# Rebuilds grader/web/static/vendor/d3/ from the versions pinned in frontend/d3/
# (package.json, package-lock.json): installs them with npm (needs the npm registry), then
# copies each module's UMD build (dist/<module>.min.js) and its LICENSE. Nothing at test or
# run time needs npm: the copied files are committed.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=(d3-dispatch d3-selection d3-color d3-interpolate d3-ease d3-timer d3-transition
         d3-drag d3-zoom d3-hierarchy)
(cd frontend/d3 && npm ci --no-audit --no-fund --ignore-scripts)
target=grader/web/static/vendor/d3
rm -rf "$target"
mkdir -p "$target"
for module in "${modules[@]}"; do
  source="frontend/d3/node_modules/$module"
  cp "$source/dist/$module.min.js" "$target/"
  cp "$source/LICENSE" "$target/$module.LICENSE"
  version=$(node -p "require('./$source/package.json').version")
  echo "$module $version" >>"$target/VERSIONS"
done
rm -rf frontend/d3/node_modules
echo "vendored into $target:"
cat "$target/VERSIONS"
