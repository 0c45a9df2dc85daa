// Remember the browser's time zone so the server renders times in it.
(function () {
  try {
    var tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (tz && document.cookie.indexOf("tz=" + tz) === -1) {
      document.cookie = "tz=" + tz + "; path=/; SameSite=Lax";
    }
  } catch (e) { /* old browser: times stay in UTC */ }
})();

// The account menu is a <details>: close it on a click outside it or on Escape.
(function () {
  function closeMenus(except) {
    document.querySelectorAll("details[data-menu][open]").forEach(function (menu) {
      if (menu !== except) menu.removeAttribute("open");
    });
  }
  document.addEventListener("click", function (event) {
    var inside = event.target.closest && event.target.closest("details[data-menu]");
    closeMenus(inside);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var open = document.querySelector("details[data-menu][open]");
    if (!open) return;
    open.removeAttribute("open");
    open.querySelector("summary").focus();
  });
})();

// A one-time value (a new API token, a set-password link): selected when focused, and
// copied by its Copy button ([data-copy] names the field), saying so next to it.
(function () {
  document.addEventListener("focusin", function (event) {
    var el = event.target;
    if (el.matches && el.matches("[data-select-on-focus]")) el.select();
  });
  function say(button, text) {
    var note = button.nextElementSibling;
    if (!note || !note.classList.contains("copy-note")) {
      note = document.createElement("span");
      note.className = "copy-note muted small";
      note.setAttribute("role", "status");
      button.insertAdjacentElement("afterend", note);
    }
    note.textContent = text;
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy]");
    if (!button) return;
    var field = document.querySelector(button.getAttribute("data-copy"));
    if (!field) return;
    field.focus();
    field.select();
    var copied = function () { say(button, "Copied."); };
    var manual = function () { say(button, "Press Ctrl+C (or ⌘C) to copy the selected text."); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(copied, manual);
    } else {
      try { (document.execCommand && document.execCommand("copy")) ? copied() : manual(); } catch (e) { manual(); }
    }
  });
})();
