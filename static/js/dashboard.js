// Dashboard behaviour that needs a script: live character and item counters, the
// guardrail / standing-rule list editor (add, move, remove; also the entries of My
// persona, with its "Use this" merge buttons), and the review queue's
// keyboard shortcuts (j/k move, a approve, d turn down, u undo the last decision). Every page still works
// without it: the server checks every limit again and the forms post as usual.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // --- live character counters -------------------------------------------------
  function counterFor(field) {
    var next = field.nextElementSibling;
    if (next && next.classList && next.classList.contains("char-count")) return next;
    var span = document.createElement("span");
    span.className = "char-count muted small";
    span.setAttribute("aria-live", "polite");
    field.insertAdjacentElement("afterend", span);
    return span;
  }

  function updateCounter(field) {
    var max = parseInt(field.getAttribute("data-max-chars"), 10);
    if (!max) return;
    // the server collapses runs of white space before it counts
    var used = field.value.replace(/\s+/g, " ").trim().length;
    var counter = counterFor(field);
    counter.textContent = used + " / " + max;
    var over = used > max;
    counter.classList.toggle("over", over);
    field.classList.toggle("over", over);
    if (over) {
      field.setAttribute("aria-invalid", "true");
      counter.textContent += " — " + (used - max) + " too many";
    } else {
      field.removeAttribute("aria-invalid");
    }
  }

  function initCounters(root) {
    root.querySelectorAll("[data-max-chars]").forEach(function (el) {
      if (el.tagName === "TEXTAREA" || el.tagName === "INPUT") updateCounter(el);
    });
  }

  document.addEventListener("input", function (event) {
    var el = event.target;
    if (el.matches && el.matches("[data-max-chars]")) updateCounter(el);
    var editor = el.closest && el.closest("[data-list-editor]");
    if (editor) refreshEditor(editor);
  });

  // --- list editor -------------------------------------------------------------------
  function rows(editor) {
    return Array.prototype.slice.call(editor.querySelectorAll("[data-row]"));
  }

  function refreshEditor(editor) {
    var maxItems = parseInt(editor.getAttribute("data-max-items"), 10);
    var filled = 0;
    var tooLong = false;
    rows(editor).forEach(function (row, i) {
      var pos = row.querySelector("input[name=pos]");
      if (pos) pos.value = i + 1;
      var remove = row.querySelector("input[name=remove]");
      if (remove) remove.value = i;
      var text = row.querySelector("textarea");
      if (text && text.value.trim()) filled += 1;
      if (text && text.classList.contains("over")) tooLong = true;
    });
    var count = editor.querySelector("[data-count]");
    var tooMany = filled > maxItems;
    if (count) {
      count.textContent = filled;
      count.parentElement.classList.toggle("over", tooMany);
    }
    var add = editor.querySelector("[data-add]");
    if (add) add.disabled = rows(editor).length >= maxItems;
    var submit = editor.querySelector("[data-submit]");
    if (submit) {
      submit.disabled = tooMany || tooLong;
      submit.title = tooMany ? "Too many entries: remove some first." : tooLong ? "An entry is too long." : "";
    }
  }

  function newRow(editor) {
    var template = editor.querySelector("[data-row].new") || rows(editor)[rows(editor).length - 1];
    var row = template.cloneNode(true);
    row.classList.remove("new");
    var text = row.querySelector("textarea");
    text.value = "";
    text.id = "item-new-" + Date.now();
    var label = row.querySelector("label[for]");
    if (label) label.setAttribute("for", text.id);
    var counter = row.querySelector(".char-count");
    if (counter) counter.remove();
    var remove = row.querySelector("input[name=remove]");
    if (remove) remove.checked = false;
    // the owner's document editor: a new row has no key and the default settings
    row.querySelectorAll("input[name=key]").forEach(function (input) { input.value = ""; });
    row.querySelectorAll("select[data-default]").forEach(function (select) {
      select.value = select.getAttribute("data-default");
    });
    editor.querySelector("[data-rows]").appendChild(row);
    updateCounter(text);
    text.focus();
    return row;
  }

  // A change made by a button (move, remove, add, "Use this") is an edit too: the
  // preview of My persona follows "change" events of the form.
  function edited(editor) {
    editor.dispatchEvent(new Event("change", { bubbles: true }));
  }

  // Reload-and-merge on My persona: "Use this" copies an entry of the saved version into
  // the unsaved edit (replacing the row with the same key, or adding it).
  function useSaved(button) {
    var editor = document.querySelector("#doc-form[data-list-editor]");
    if (!editor) return;
    var key = button.getAttribute("data-key");
    var row = null;
    rows(editor).forEach(function (candidate) {
      var input = candidate.querySelector("input[name=key]");
      if (input && key && input.value === key) row = candidate;
    });
    if (!row) {
      row = newRow(editor);
      row.querySelector("input[name=key]").value = key;
    }
    var text = row.querySelector("textarea");
    text.value = button.getAttribute("data-text");
    var sensitivity = row.querySelector("select[name=sensitivity]");
    if (sensitivity) sensitivity.value = button.getAttribute("data-sensitivity");
    var tier = row.querySelector("select[name=tier]");
    if (tier) tier.value = button.getAttribute("data-tier");
    updateCounter(text);
    refreshEditor(editor);
    edited(editor);
    button.textContent = "Copied into your edit";
    button.disabled = true;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button");
    if (!button) return;
    if (button.hasAttribute("data-merge-use")) {
      useSaved(button);
      return;
    }
    var editor = button.closest("[data-list-editor]");
    if (!editor) return;
    var row = button.closest("[data-row]");
    if (button.hasAttribute("data-add")) {
      newRow(editor);
    } else if (button.hasAttribute("data-remove") && row) {
      if (rows(editor).length > 1) {
        row.remove();
      } else {
        row.querySelector("textarea").value = "";
      }
    } else if (button.hasAttribute("data-move") && row) {
      var step = parseInt(button.getAttribute("data-move"), 10);
      var sibling = step < 0 ? row.previousElementSibling : row.nextElementSibling;
      if (sibling) {
        if (step < 0) sibling.before(row);
        else sibling.after(row);
        button.focus();
      }
    } else {
      return;
    }
    refreshEditor(editor);
    edited(editor);
  });

  // My persona: Enter in a removal reason removes that entry (not the form's default save).
  document.addEventListener("keydown", function (event) {
    var input = event.target;
    if (event.key !== "Enter" || !input.matches || !input.matches("details.remove-now input")) return;
    var button = input.closest("details.remove-now").querySelector("[data-action=remove]");
    if (!button) return;
    event.preventDefault();
    button.click();
  });

  // --- review queue keyboard -----------------------------------------------------------
  function queueRows() {
    return Array.prototype.slice.call(document.querySelectorAll(".qrow[data-waiting='1']"));
  }

  // the id of the card of the last decision, for "u" (set once htmx has processed the new
  // card, so its Undo posts through htmx and the page stays put)
  var lastDecidedId = null;

  function current() {
    return document.querySelector(".qrow.current");
  }

  function select(row) {
    var old = current();
    if (old) old.classList.remove("current");
    if (!row) return;
    row.classList.add("current");
    row.focus({ preventScroll: true });
    row.scrollIntoView({ block: "nearest" });
  }

  function move(step) {
    var list = queueRows();
    if (!list.length) return;
    var at = list.indexOf(current());
    var next = at < 0 ? 0 : Math.min(list.length - 1, Math.max(0, at + step));
    select(list[next]);
  }

  function typing(target) {
    return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }

  document.addEventListener("keydown", function (event) {
    if (!document.querySelector("[data-queue]")) return;
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    var key = event.key;
    if (key === "j") move(1);
    else if (key === "k") move(-1);
    else if (key === "u") {
      // undo the last decision made on this page (its card keeps the Undo button)
      var decided = lastDecidedId ? document.getElementById(lastDecidedId) : null;
      var undo = decided && decided.querySelector("[data-action=undo]");
      if (!undo) return;
      undo.click();
    } else if (key === "a" || key === "d") {
      var row = current() || queueRows()[0];
      if (!row) return;
      select(row);
      var button = row.querySelector(key === "a" ? "[data-action=approve]" : "[data-action=dismiss]");
      if (button && !button.disabled) button.click();
      else {
        // not this person's to decide: say who decides, where the card says it already
        var note = row.querySelector(".deciders");
        if (note) {
          note.classList.add("flash");
          note.setAttribute("role", "status");
        }
      }
    } else return;
    event.preventDefault();
  });

  // After a row is swapped in place, move on to the next waiting proposal.
  // htmx:load fires on the new row itself (the old one, and the form that asked,
  // are gone from the document by then).
  document.addEventListener("htmx:load", function (event) {
    var swapped = event.target;
    if (!swapped || !swapped.classList) return;
    initCounters(swapped);
    if (!swapped.classList.contains("qrow")) return;
    if (swapped.getAttribute("data-waiting") === "1") {
      select(swapped); // refused: it keeps waiting, stay on it
      return;
    }
    swapped.classList.remove("current");
    if (swapped.querySelector("[data-action=undo]") && swapped.id) lastDecidedId = swapped.id;
    swapped.setAttribute("data-ready", "1"); // its buttons now post through htmx
    var following = queueRows().filter(function (row) {
      return swapped.compareDocumentPosition(row) & Node.DOCUMENT_POSITION_FOLLOWING;
    });
    select(following[0] || queueRows()[0] || null);
  });

  function init() {
    initCounters(document);
    document.querySelectorAll("[data-list-editor]").forEach(refreshEditor);
    var first = queueRows()[0];
    if (first && window.location.hash === "") select(first);
    else if (window.location.hash) {
      var target = document.querySelector(window.location.hash);
      if (target && target.classList.contains("qrow")) select(target);
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
