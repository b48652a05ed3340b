/* Aisle browser SDK: defines window.Aisle. Served minified at /sdk.js;
 * docs/sdk.md is its reference. Every call answers with a Promise and,
 * when given, a callback; a failure never throws into the page. */
((w, d) => {
  "use strict";
  if (w.Aisle && w.Aisle.version) return; // loaded twice: the first serves

  var STORE = "aisle_id"; // the tracking id's cookie and localStorage key
  var YEAR = 31536000; // the cookie's life in seconds
  var TIMEOUT = 15000; // a request's time before it fails, in ms
  var MAX_FILTER_VALUES = 100; // values kept per returned filter
  var CONTENT = { category: "categories", brand: "brands", site_page: "sitePages", blog_post: "blogPosts" };

  var script = d.currentScript;
  var cfg = { websiteUuid: "", baseUrl: location.origin, timeout: TIMEOUT, trackingUserId: "" };
  if (script) {
    cfg.websiteUuid = script.getAttribute("data-website") || "";
    try {
      if (script.src) cfg.baseUrl = new URL(script.src, location.href).origin;
    } catch (e) { /* keep the page's origin */ }
  }

  function isFn(f) { return typeof f === "function"; }
  function int(v, def) { v = Number(v); return isFinite(v) && v >= 0 ? Math.floor(v) : def; }
  function list(v) { return v == null ? [] : Array.isArray(v) ? v : [v]; }

  // fail makes the error object callers receive: {status, code, message}
  // (status 0 when no answer came), plus field when the server names one.
  function fail(status, code, message, field) {
    var e = { status: status, code: code, message: message };
    if (field) e.field = field;
    return e;
  }

  // settle hands p's outcome to callback (data, or {error}) and returns p.
  // With a callback the page handles failures there, so p is marked
  // handled: no "uncaught (in promise)" report.
  function settle(p, callback) {
    if (!isFn(callback)) return p;
    function call(v) {
      try { callback(v); } catch (e) { console.error("Aisle: the callback threw", e); }
    }
    p.then(call, (err) => { call({ error: err }); });
    return p;
  }

  // request POSTs body as JSON in a text/plain body, without credentials:
  // a simple request, so no preflight from any origin. It resolves with
  // the answer's JSON or rejects with fail's object.
  function request(path, body) {
    return new Promise((resolve, reject) => {
      var ctl = w.AbortController ? new AbortController() : null;
      var timer = setTimeout(() => {
        if (ctl) ctl.abort();
        reject(fail(0, "TIMEOUT", "no answer from " + cfg.baseUrl + " within " + cfg.timeout + " ms"));
      }, cfg.timeout);
      fetch(cfg.baseUrl + path, {
        method: "POST",
        mode: "cors",
        credentials: "omit",
        headers: { "Content-Type": "text/plain;charset=UTF-8" },
        body: JSON.stringify(body),
        signal: ctl ? ctl.signal : undefined
      }).then((res) => {
        return res.text().then((text) => {
          var data;
          try { data = JSON.parse(text); } catch (e) {
            throw fail(res.status, "BAD_RESPONSE", "the answer is not JSON (HTTP " + res.status + ")");
          }
          if (!res.ok || data.success === false) {
            var er = data.error || {};
            throw fail(res.status, er.code || "HTTP_" + res.status, er.message || "HTTP " + res.status, er.field);
          }
          return data;
        });
      }, (e) => {
        throw fail(0, "NETWORK", "cannot reach " + cfg.baseUrl + ": " + (e && e.message || e));
      }).then((data) => {
        clearTimeout(timer);
        resolve(data);
      }, (err) => {
        clearTimeout(timer);
        reject(err && err.code ? err : fail(0, "NETWORK", String(err)));
      });
    });
  }

  // call runs fn, turning anything it throws into a rejection.
  function call(fn, callback) {
    var p;
    try { p = Promise.resolve(fn()); } catch (e) {
      p = Promise.reject(e && e.code ? e : fail(0, "INVALID_CALL", String(e && e.message || e)));
    }
    return settle(p, callback);
  }

  // ---- the visitor's tracking id: first-party cookie and localStorage

  function readCookie() {
    var m = d.cookie.match(new RegExp("(?:^|;\\s*)" + STORE + "=([^;]*)"));
    return m ? decodeURIComponent(m[1]) : "";
  }

  function trackingId() {
    if (cfg.trackingUserId) return cfg.trackingUserId;
    var id = "";
    try { id = readCookie(); } catch (e) { /* cookies blocked */ }
    var stored = "";
    try { stored = w.localStorage.getItem(STORE) || ""; } catch (e) { /* storage blocked */ }
    id = id || stored;
    if (!/^[0-9a-zA-Z-]{1,64}$/.test(id)) {
      var b = new Uint8Array(16);
      w.crypto.getRandomValues(b);
      id = Array.prototype.map.call(b, (x) => { return (x < 16 ? "0" : "") + x.toString(16); }).join("");
    }
    try {
      d.cookie = STORE + "=" + id + "; path=/; max-age=" + YEAR + "; SameSite=Lax" + (location.protocol === "https:" ? "; Secure" : "");
    } catch (e) { /* cookies blocked */ }
    try { if (stored !== id) w.localStorage.setItem(STORE, id); } catch (e) { /* storage blocked */ }
    cfg.trackingUserId = id; // one id for this page's life
    return id;
  }

  // ---- events: POST /serve/collect/{kind}

  function event(kind, body) {
    body.websiteUuid = cfg.websiteUuid;
    body.trackingUserId = trackingId();
    return body;
  }

  // beacon sends an event that must survive the page's unload; it says
  // whether the browser took it.
  function beacon(kind, body) {
    var url = cfg.baseUrl + "/serve/collect/" + kind;
    var data = JSON.stringify(event(kind, body));
    try {
      if (navigator.sendBeacon && navigator.sendBeacon(url, new Blob([data], { type: "text/plain;charset=UTF-8" }))) return true;
    } catch (e) { /* fall back to fetch */ }
    try {
      fetch(url, { method: "POST", mode: "cors", credentials: "omit", keepalive: true, headers: { "Content-Type": "text/plain;charset=UTF-8" }, body: data }).catch(() => {});
      return true;
    } catch (e) {
      return false;
    }
  }

  function needWebsite() {
    if (!cfg.websiteUuid) throw fail(0, "NO_WEBSITE", "no website: call Aisle.init({websiteUuid}) or set data-website on the script tag");
  }

  var track = {
    view: (product, callback) => {
      return call(() => {
        needWebsite();
        var b = typeof product === "object" && product ? { productNumber: product.productNumber, url: product.url } : { productNumber: String(product) };
        if (!b.productNumber) delete b.productNumber;
        if (!b.url) delete b.url;
        return request("/serve/collect/view", event("view", b));
      }, callback);
    },
    click: (productNumber, shown, callback) => {
      return call(() => {
        needWebsite();
        var s = shown || {};
        var sh = { source: s.source || "search", key: s.key };
        if (s.position) sh.position = int(s.position, 0);
        if (s.retailMediaCampaignId) sh.retailMediaCampaignId = s.retailMediaCampaignId;
        return { success: beacon("click", { productNumber: String(productNumber), shown: sh }) };
      }, callback);
    },
    cart: (productNumbers, callback) => {
      return call(() => {
        needWebsite();
        return request("/serve/collect/cart", event("cart", { productNumbers: list(productNumbers).map(String) }));
      }, callback);
    },
    search: (query, results, callback) => {
      return call(() => {
        needWebsite();
        return { success: trackSearch(String(query), int(results, 0)) };
      }, callback);
    },
    purchase: (order, callback) => {
      return call(() => {
        needWebsite();
        var o = order || {}, b = {};
        ["orderNumber", "lines", "productNumbers", "total", "email", "customerId"].forEach((k) => {
          if (o[k] != null) b[k] = o[k];
        });
        return request("/serve/collect/purchase", event("purchase", b));
      }, callback);
    }
  };

  // ---- search

  // trackSearch sends a search event, unless the last one sent was of
  // the same phrase (a refinement: filters, sorting or a page of the
  // same search); it says whether it sent one.
  var lastSearch = "";
  function trackSearch(query, results) {
    var q = query.trim().toLowerCase();
    if (!q || q === "*" || q === lastSearch) return false;
    lastSearch = q;
    return beacon("search", { query: query, results: results });
  }

  // capFilters keeps at most max values of each returned filter, and
  // every selected one.
  function capFilters(filters, max) {
    return list(filters).map((f) => {
      if (!Array.isArray(f.values) || f.values.length <= max) return f;
      var c = Object.assign({}, f);
      c.values = f.values.filter((v, i) => { return i < max || v.selected; });
      return c;
    });
  }

  function searchBody(key, phrase, o) {
    var json = String(o.format || "HTML").toUpperCase() === "JSON";
    var eo = o.engine_options || {};
    function part(name, def) {
      var p = eo[name] || {};
      return { start: int(p.start, 0), count: int(p.current_count, def) };
    }
    var products = part("product", 10);
    if (list(o.filters).length) products.filters = list(o.filters);
    if (list(o.sorting).length) products.sorting = list(o.sorting);
    if (o.return_filters) {
      products.returnFilters = true;
      if (list(o.exclude_sibling_filters).length) products.excludeSiblingFilters = list(o.exclude_sibling_filters);
    }
    if (json && o.product_fields) {
      products.fields = String(o.product_fields).split(",").map((s) => { return s.trim(); }).filter(Boolean);
    }
    var body = { key: String(key), query: phrase == null ? "" : String(phrase), format: json ? "json" : "html", trackingUserId: trackingId(), products: products };
    Object.keys(CONTENT).forEach((name) => {
      var p = part(name, 0);
      if (p.count > 0) body[CONTENT[name]] = p;
    });
    if (o.device_type) body.deviceType = String(o.device_type).toUpperCase();
    return body;
  }

  function results(part) { return part && part.results || []; }

  function search(key, phrase, options) {
    var o = options || {};
    return call(() => {
      var body = searchBody(key, phrase, o);
      return request("/serve/search", body).then((res) => {
        var p = res.products || {};
        var total = p.totalCount || 0;
        // A new search (its first page) of another phrase than the last
        // tracked is tracked; a refinement or page turn of it, an empty
        // query (browsing) and track: false are not.
        var tracked = false;
        if (o.track !== false && cfg.websiteUuid && body.products.start === 0) {
          tracked = trackSearch(body.query, total);
        }
        var a = { product_results: total, product_start: p.start || 0, didTrackSearch: tracked };
        if (body.format === "html") {
          a.result = res.html || "";
        } else {
          a.results = results(p);
          a.categories = results(res.categories);
          a.brands = results(res.brands);
          a.site_pages = results(res.sitePages);
          a.blog_posts = results(res.blogPosts);
          a.redirects = results(res.redirects);
          a.suggestedProductStatus = p.suggestedProductStatus;
        }
        if (p.filters) a.filters = capFilters(p.filters, int(o.max_filter_values, MAX_FILTER_VALUES));
        if (p.sorting) a.sorting = p.sorting;
        return a;
      });
    }, o.callback);
  }

  // ---- pages and recommendations

  function loadPage(key, options) {
    var o = options || {};
    return call(() => {
      var pr = o.products || {};
      var products = { start: int(pr.start, 0), count: int(pr.count, 10) };
      ["fields", "filters", "sorting"].forEach((k) => { if (pr[k]) products[k] = list(pr[k]); });
      var body = {
        url: o.url || location.href,
        firstLoad: o.firstLoad !== false,
        params: o.params || {},
        products: products,
        trackingUserId: trackingId()
      };
      if (o.format) body.format = String(o.format).toLowerCase();
      if (o.device_type) body.deviceType = String(o.device_type).toUpperCase();
      return request("/serve/pages/" + encodeURIComponent(key), body);
    }, o.callback);
  }

  function loadRecoms(requests, options) {
    var o = options || {};
    return call(() => {
      if (!Array.isArray(requests)) throw fail(0, "INVALID_CALL", "recoms.load takes a list of requests");
      var body = { requests: requests, trackingUserId: trackingId() };
      if (cfg.websiteUuid) body.websiteUuid = cfg.websiteUuid;
      return request("/serve/recoms", body);
    }, o.callback);
  }

  // ---- init and the command queue

  function init(o) {
    o = o || {};
    if (o.websiteUuid) cfg.websiteUuid = String(o.websiteUuid);
    if (o.baseUrl) cfg.baseUrl = String(o.baseUrl).replace(/\/+$/, "");
    if (o.timeout) cfg.timeout = int(o.timeout, TIMEOUT);
    if (o.trackingUserId) cfg.trackingUserId = String(o.trackingUserId);
    return Aisle;
  }

  var Aisle = {
    version: "1",
    init: init,
    config: () => { return { websiteUuid: cfg.websiteUuid, baseUrl: cfg.baseUrl, timeout: cfg.timeout }; },
    search: { search: search },
    pages: { load: loadPage },
    recoms: { load: loadRecoms },
    track: track,
    user: { trackingId: trackingId }
  };

  // run runs a queued command: [dotted method name, ...args], or a
  // function given Aisle. A bad entry is reported on the console.
  function run(entry) {
    try {
      if (isFn(entry)) return entry(Aisle);
      var path = String(entry && entry[0]).split(".");
      var obj = Aisle, fn = Aisle;
      for (var i = 0; i < path.length && fn; i++) { obj = fn; fn = fn[path[i]]; }
      if (!isFn(fn)) { console.warn("Aisle: no method " + path.join(".")); return; }
      var p = fn.apply(obj, entry.slice(1));
      if (p && isFn(p.catch)) p.catch(() => {}); // the queue returns nothing to the page
    } catch (e) {
      console.error("Aisle: queued call failed", e);
    }
  }

  w.Aisle = Aisle;
  var queued = list(w.aisleq);
  w.aisleq = { push: function () { for (var i = 0; i < arguments.length; i++) run(arguments[i]); return 0; } };
  // After the rest of this script (the InstantSearch client) has run.
  Promise.resolve().then(() => { queued.forEach(run); });
})(window, document);
