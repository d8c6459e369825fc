// Bundles src/editor.js into one file (called by scripts/vendor-editor.sh).
//
// CodeMirror puts its own styles in the page through style-mod, which writes a <style>
// element into a document's head: the grader's Content-Security-Policy (style-src 'self')
// refuses it. In a shadow root style-mod uses a constructed style sheet instead, which the
// policy allows; the plugin below makes it do the same for a document (every browser with
// document.adoptedStyleSheets), so that the editor needs no exception in the policy.
import { build } from "esbuild";
import { readFile } from "node:fs/promises";

const [outfile, metafile] = process.argv.slice(2);
const SHADOW_ROOT_ONLY = "!root.head && root.adoptedStyleSheets";

const constructedStyles = {
  name: "constructed-styles",
  setup(context) {
    context.onLoad({ filter: /[\\/]style-mod[\\/]src[\\/]style-mod\.js$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      if (!text.includes(SHADOW_ROOT_ONLY)) {
        throw new Error(`style-mod changed: "${SHADOW_ROOT_ONLY}" not found in ${args.path}`);
      }
      return { contents: text.replace(SHADOW_ROOT_ONLY, "root.adoptedStyleSheets"), loader: "js" };
    });
  },
};

const result = await build({
  entryPoints: ["src/editor.js"],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  legalComments: "none",
  metafile: true,
  outfile,
  plugins: [constructedStyles],
  logLevel: "warning",
});
if (metafile) {
  const { writeFile } = await import("node:fs/promises");
  await writeFile(metafile, JSON.stringify(result.metafile));
}
