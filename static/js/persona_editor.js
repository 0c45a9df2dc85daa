// The persona editors' "Use this" buttons during a merge: with JavaScript they copy the
// saved text into the edit in place (a field's text, or a guardrail / rule line added as
// a new row) instead of posting the form. Without JavaScript the same buttons post the
// form and the server does the copy; the budgets shown as you type are dashboard.js's
// counters (data-max-chars), and the server checks every limit again.
(function () {
  "use strict";

  function counted(field) {
    // let dashboard.js recount the budget and the list editor's totals
    field.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function useField(button) {
    var field = document.querySelector("#edit-form [name='" + button.getAttribute("data-use-field") + "']");
    if (!field) return false;
    field.value = button.getAttribute("data-text");
    counted(field);
    return true;
  }

  function useLine(button) {
    var editor = document.querySelector("#list-form[data-list-editor]");
    if (!editor) return false;
    var text = button.getAttribute("data-text");
    var blank = null;
    var rows = editor.querySelectorAll("[data-row] textarea");
    for (var i = 0; i < rows.length; i++) {
      if (rows[i].value.trim().toLowerCase() === text.trim().toLowerCase()) return true;
      if (!rows[i].value.trim()) blank = rows[i];
    }
    if (!blank) {
      var add = editor.querySelector("[data-add]");
      if (!add || add.disabled) return false;
      add.click();
      rows = editor.querySelectorAll("[data-row] textarea");
      blank = rows[rows.length - 1];
    }
    blank.value = text;
    counted(blank);
    return true;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-use-field], button[data-use-line]");
    if (!button) return;
    var done = button.hasAttribute("data-use-field") ? useField(button) : useLine(button);
    if (!done) return; // fall back to the server
    event.preventDefault();
    button.textContent = "Copied into your edit";
    button.disabled = true;
  });
})();
