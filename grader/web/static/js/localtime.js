// Times in the viewer's time zone. The server writes every time in UTC:
//   <time datetime="2026-12-05T22:59:00Z" data-local>Sat 5 Dec 2026, 22:59 UTC</time>
// This script shows each such time in the browser's zone (keeping the UTC text as its
// title), fills hidden time-zone fields (input[data-timezone]) with the browser's IANA
// zone, and moves the UTC values of datetime-local inputs marked data-utc into local time.
(function () {
  "use strict";

  function browserZone() {
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
    } catch (error) {
      return "UTC";
    }
  }

  var zone = browserZone();
  var now = new Date();

  function format(moment) {
    var options = {
      weekday: "short", day: "numeric", month: "short",
      hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone,
    };
    if (moment.getFullYear() !== now.getFullYear()) options.year = "numeric";
    try {
      return new Intl.DateTimeFormat(undefined, options).format(moment);
    } catch (error) {
      options.timeZone = "UTC";
      return new Intl.DateTimeFormat(undefined, options).format(moment) + " UTC";
    }
  }

  function pad(number) {
    return (number < 10 ? "0" : "") + number;
  }

  function localValue(moment) {
    // The wall-clock time in the browser's zone, as a datetime-local input wants it.
    return moment.getFullYear() + "-" + pad(moment.getMonth() + 1) + "-" + pad(moment.getDate()) +
      "T" + pad(moment.getHours()) + ":" + pad(moment.getMinutes());
  }

  function localise() {
    document.querySelectorAll("time[datetime][data-local]").forEach(function (element) {
      var moment = new Date(element.getAttribute("datetime"));
      if (isNaN(moment.getTime())) return;
      if (!element.title) element.title = element.textContent.trim();
      element.textContent = format(moment);
    });
    document.querySelectorAll("input[data-timezone]").forEach(function (input) {
      input.value = zone;
    });
    document.querySelectorAll("[data-timezone-name]").forEach(function (element) {
      element.textContent = zone;
    });
    document.querySelectorAll("input[type=datetime-local][data-utc]").forEach(function (input) {
      var utc = input.getAttribute("data-utc");
      if (!utc) return;
      var moment = new Date(utc + ":00Z");
      if (!isNaN(moment.getTime())) input.value = localValue(moment);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", localise);
  } else {
    localise();
  }
})();
