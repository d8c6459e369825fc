// The exercise page's editor: puts CodeMirror (vendor/codemirror/editor.bundle.js) in place
// of the code textarea, loads the exercise's starter file when the draft is empty, and
// keeps the textarea filled with the editor's text so that both buttons post it. Without
// this script (or the bundle) the textarea and the upload work as they are.
(function () {
  "use strict";

  var textarea = document.querySelector("form.editor-form textarea[data-starter-url]");
  if (!textarea || !window.GraderEditor) { return; }
  var form = textarea.form;
  var label = form.querySelector('label[for="' + textarea.id + '"]');

  var editor = window.GraderEditor.attach(textarea, {
    label: "Your code (Python)",
    describedBy: "editor-hint",
  });
  editor.view.dom.classList.add("code-editor");
  var keys = form.querySelector(".editor-keys");
  if (keys) { keys.hidden = false; }
  if (label) {
    label.textContent = "or write your code here (Python)";
    // The label's textarea is hidden now: a click on the label goes to the editor.
    label.addEventListener("click", function (event) {
      event.preventDefault();
      editor.focus();
    });
  }

  // An empty draft starts from the starter file (the same one the download link gives).
  if (!editor.text().trim()) {
    fetch(textarea.getAttribute("data-starter-url"), { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : ""; })
      .then(function (starter) {
        if (starter && !editor.text().trim()) { editor.setText(starter); }
      })
      .catch(function () { /* no starter: the editor stays empty */ });
  }

  // The editor writes every change back; this covers a post made before any change.
  form.addEventListener("submit", function () { textarea.value = editor.text(); });
})();
