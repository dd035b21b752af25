// The browser tests' recorders and controls, run before any of the app's own scripts in
// every page of the app: the harness serves the built app with this file added as the
// first script of index.html and 404.html (see `web_root::prepare`). An ordinary
// same-origin script, so it runs under the app's Content-Security-Policy in every
// engine, where an injected inline script or `eval` would not.
//
// What a test turns on is data, not code: the JSON object in the tab's sessionStorage
// under `__e2e` (written by `Harness::preload`), read when each page starts; the fetch
// controls read it again on every request, so a test can change them mid-page.
(function () {
  "use strict";
  function settings() {
    try {
      return JSON.parse(sessionStorage.getItem("__e2e") || "{}") || {};
    } catch (error) {
      return {};
    }
  }
  var config = settings();

  // What a user would see as errors in the developer console: uncaught errors, rejected
  // promises, failed image/script loads, `console.error` calls, and anything the
  // Content-Security-Policy blocked.
  window.__errors = [];
  window.addEventListener("error", function (e) {
    var what = e.target && e.target !== window
      ? (e.target.src || e.target.href || e.target.tagName)
      : e.message;
    window.__errors.push("error: " + what);
  }, true);
  window.addEventListener("unhandledrejection", function (e) {
    window.__errors.push("rejection: " + e.reason);
  });
  document.addEventListener("securitypolicyviolation", function (e) {
    window.__errors.push("csp: " + e.violatedDirective + " blocked " + (e.blockedURI || "?") +
      " in " + (e.sourceFile || location.href) + ":" + e.lineNumber);
  });
  var consoleError = console.error.bind(console);
  console.error = function () {
    var args = Array.prototype.slice.call(arguments);
    window.__errors.push("console: " + args.join(" "));
    consoleError.apply(null, args);
  };

  // Every address this tab showed, history entries included: what tests search for
  // leaked secrets.
  function visit() {
    var list = [];
    try {
      list = JSON.parse(sessionStorage.getItem("__e2eVisited") || "[]");
    } catch (error) {}
    list.push(location.href);
    sessionStorage.setItem("__e2eVisited", JSON.stringify(list));
  }
  visit();
  ["pushState", "replaceState"].forEach(function (name) {
    var original = History.prototype[name];
    History.prototype[name] = function () {
      var result = original.apply(this, arguments);
      visit();
      return result;
    };
  });

  // Every WebAssembly.Memory the page instantiates (the split build's modules share one).
  // The browser's languages as a visitor's settings give them (`["cy-GB", "en"]`).
  if (config.languages) {
    Object.defineProperty(navigator, "languages", { get: function () { return config.languages; } });
  }

  if (config.wasmMemory) {
    window.__memories = new Set();
    ["instantiate", "instantiateStreaming"].forEach(function (name) {
      var original = WebAssembly[name];
      WebAssembly[name] = function () {
        return original.apply(this, arguments).then(function (result) {
          var exports = (result.instance || result).exports || {};
          Object.keys(exports).forEach(function (key) {
            if (exports[key] instanceof WebAssembly.Memory) window.__memories.add(exports[key]);
          });
          return result;
        });
      };
    });
  }

  // The folder picker answers the origin-private file system, which a test can read back.
  if (config.privateFolder) {
    window.__downloadExplorerPickDirectory = function () {
      return navigator.storage.getDirectory();
    };
  }

  // The most elements matching `config.most` the page ever held at once.
  if (config.most) {
    window.__most = 0;
    new MutationObserver(function () {
      window.__most = Math.max(window.__most, document.querySelectorAll(config.most).length);
    }).observe(document, { childList: true, subtree: true });
  }

  // Whether the page ever held the text `config.sawText`, however briefly (in a first
  // view the app replaced a moment later too).
  if (config.sawText) {
    window.__sawText = false;
    new MutationObserver(function (_, observer) {
      if (document.body && document.body.textContent.indexOf(config.sawText) >= 0) {
        window.__sawText = true;
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  }

  // The page's cumulative layout shift, from the first paint (Chromium reports it).
  if (config.layoutShift) {
    window.__shift = 0;
    new PerformanceObserver(function (list) {
      list.getEntries().forEach(function (e) {
        if (!e.hadRecentInput) window.__shift += e.value;
      });
    }).observe({ type: "layout-shift", buffered: true });
  }

  // Fetch controls, from `config.fetch`: `fail` (URL patterns with `*`) fail as a
  // network error does; `answerMatching` answers `answerText`; `hold` waits until
  // `window.__release()`.
  function pattern(glob) {
    var escaped = glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
    return new RegExp("^" + escaped + "$");
  }
  window.__held = [];
  var realFetch = window.fetch.bind(window);
  window.fetch = function (input, init) {
    // A string, a Request or (as wasm-split's chunk loader passes) a URL.
    var url = typeof input === "string" ? input : (input.url || input.href);
    var control = settings().fetch || {};
    if ((control.fail || []).some(function (glob) { return pattern(glob).test(url); })) {
      return Promise.reject(new TypeError("Failed to fetch (blocked by the test)"));
    }
    if (control.answerMatching && url.indexOf(control.answerMatching) >= 0) {
      return Promise.resolve(new Response(control.answerText,
        { status: 200, headers: { "content-type": "application/json" } }));
    }
    if (control.hold && url.indexOf(control.hold) >= 0) {
      return new Promise(function (resolve) {
        window.__held.push(function () { resolve(realFetch(input, init)); });
      });
    }
    return realFetch(input, init);
  };
  // `config.missingWorkers`: every worker the page starts is asked for at an address
  // that holds no script, as on a host that lost the file, so it fails to start as such
  // a worker does (its `error` event).
  if (config.missingWorkers) {
    var RealWorker = window.Worker;
    window.Worker = function (url, options) {
      return new RealWorker(new URL(String(url), document.baseURI) + ".missing", options);
    };
  }
  // `config.silentWorkers`: every worker the page starts is one that never answers, as
  // a worker busy with a long file is; `window.__workers` lists them, each `terminated`
  // once the page stops it.
  window.__workers = [];
  if (config.silentWorkers) {
    window.Worker = function () {
      var worker = {
        terminated: false,
        postMessage: function () {},
        terminate: function () { worker.terminated = true; }
      };
      window.__workers.push(worker);
      return worker;
    };
  }
  window.__release = function () {
    var all = settings();
    if (all.fetch) delete all.fetch.hold;
    sessionStorage.setItem("__e2e", JSON.stringify(all));
    window.__held.splice(0).forEach(function (go) { go(); });
  };
})();
