// Remember the browser's time zone so the server renders times in it.
(function () {
  try {
    var tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (tz && document.cookie.indexOf("tz=" + tz) === -1) {
      document.cookie = "tz=" + tz + "; path=/; SameSite=Lax";
    }
  } catch (e) { /* old browser: times stay in UTC */ }
})();
