// The exercise page's code editor: CodeMirror 6 with Python highlighting, put in place of a
// textarea that stays the form's field. Bundled by scripts/vendor-editor.sh into one file
// that defines window.GraderEditor; grader/web/static/editor.js wires it to the page.

import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import {
  bracketMatching,
  defaultHighlightStyle,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
} from "@codemirror/language";
import { EditorState } from "@codemirror/state";
import {
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from "@codemirror/view";

// The extensions every editor of the page gets. Tab indents (Python needs it); CodeMirror
// lets Tab leave the editor when Escape was pressed just before, which the page says.
function extensions(label, describedBy) {
  // tabindex: the content is a tab stop (as a contenteditable is), said so for checkers.
  const attributes = { "aria-label": label, "aria-multiline": "true", tabindex: "0" };
  if (describedBy) attributes["aria-describedby"] = describedBy;
  return [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    history(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    highlightActiveLine(),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    indentUnit.of("    "),
    EditorState.tabSize.of(4),
    python(),
    keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
    EditorView.contentAttributes.of(attributes),
  ];
}

// Put an editor in place of ``textarea``, starting from its text (or ``initial`` when it is
// empty). The textarea stays in the form, hidden, and is given the editor's text whenever
// it changes, so a form post sends what is in the editor. Returns the editor's handle.
function attach(textarea, options = {}) {
  const label = options.label || textarea.getAttribute("aria-label") || "Python source";
  const view = new EditorView({
    state: EditorState.create({
      doc: textarea.value || options.initial || "",
      extensions: [
        extensions(label, options.describedBy),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) textarea.value = update.state.doc.toString();
        }),
      ],
    }),
  });
  textarea.value = view.state.doc.toString();
  textarea.hidden = true;
  textarea.insertAdjacentElement("afterend", view.dom);
  return {
    view,
    text: () => view.state.doc.toString(),
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    focus: () => view.focus(),
  };
}

window.GraderEditor = Object.freeze({ attach });
