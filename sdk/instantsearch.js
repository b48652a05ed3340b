/* Aisle's InstantSearch.js client: Aisle.instantsearch.searchClient(options)
 * implements InstantSearch's searchClient contract on Aisle.search.search.
 * docs/sdk.md, "InstantSearch", maps each parameter and lists what is not. */
((Aisle) => {
  "use strict";
  if (!Aisle || Aisle.instantsearch) return;

  var LVL = /^(.+)\.lvl(\d+)$/; // a hierarchical menu's attribute: hierarchies.lvl1
  var NUM = /^\s*([^<>=!\s]+)\s*(>=|<=|=)\s*(-?[0-9.eE+-]+)\s*$/;

  function fail(message) { return { status: 0, code: "NOT_MAPPED", message: "Aisle InstantSearch: " + message }; }
  function arr(v) { return v == null || v === "" ? [] : Array.isArray(v) ? v : [v]; }
  // num reads a RANGE facet's bound: a number, or a date as Unix seconds.
  function num(s) { return s == null ? NaN : isFinite(+s) ? +s : Date.parse(s) / 1000; }
  function own(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }

  // params reads a request's params: an object, or an Algolia v3 query string.
  function params(p) {
    if (typeof p !== "string") return p || {};
    var o = {};
    new URLSearchParams(p).forEach((v, k) => {
      try { o[k] = /^[\[{]/.test(v) ? JSON.parse(v) : v; } catch (e) { o[k] = v; }
    });
    return o;
  }

  function searchClient(options) {
    var opt = options || {};
    var sep = opt.hierarchySeparator || " > ";
    var indexes = opt.indexes || {};

    // index maps an index name to the configuration key and sorting:
    // options.indexes[name], else "KEY" or "KEY:SORTING,SORTING", else
    // options.key.
    function index(name) {
      var ix = own(indexes, name) ? indexes[name] : null;
      if (ix) return { key: ix.key || opt.key, sorting: arr(ix.sorting) };
      var at = name.indexOf(":");
      var key = at < 0 ? name : name.slice(0, at);
      var sorting = at < 0 ? [] : name.slice(at + 1).split(",").map((s) => { return s.trim(); }).filter(Boolean);
      return { key: key || opt.key, sorting: sorting };
    }

    // hier names an attribute's hierarchy field and level, or null.
    function hier(attr) {
      var m = LVL.exec(attr);
      return m ? { field: m[1], level: +m[2] } : null;
    }

    function unescapeValue(v) { return v.charAt(0) === "\\" && v.charAt(1) === "-" ? v.slice(1) : v; }

    // plan turns one Algolia request into the Aisle search it needs: its
    // filters by field (each field's values ORed, fields ANDed, as Aisle
    // does), the fields whose counts must be conjunctive, and paging.
    function plan(req) {
      var p = params(req.params);
      var ix = index(req.indexName || "");
      if (!ix.key) throw fail("no search configuration key: name the index, or pass searchClient({key})");
      var pl = { req: req, p: p, key: ix.key, sorting: ix.sorting, query: p.query == null ? "" : String(p.query),
        byField: {}, conj: {}, hierPath: {}, facets: arr(p.facets) };
      if (p.filters) throw fail("the filters string is not mapped: use facetFilters and numericFilters");
      if (arr(p.tagFilters).length) throw fail("tagFilters are not mapped");
      function add(field, value, conjunctive) {
        (pl.byField[field] = pl.byField[field] || []).push(value);
        if (conjunctive) pl.conj[field] = true;
      }
      function facetFilter(s, conjunctive) {
        var at = s.indexOf(":");
        if (at < 1) throw fail("facet filter " + JSON.stringify(s) + " is not attribute:value");
        var attr = s.slice(0, at), value = s.slice(at + 1);
        if (value.charAt(0) === "-") throw fail("negative facet filter " + JSON.stringify(s) + " is not mapped");
        value = unescapeValue(value);
        var h = hier(attr);
        if (h) {
          var path = value.split(sep);
          if (path.length !== h.level + 1) throw fail("facet filter " + JSON.stringify(s) + " is not a path of level " + h.level);
          pl.hierPath[h.field] = path;
          return add(h.field, h.field + ":" + path.join("$") + "$");
        }
        add(attr, attr + ":" + value, conjunctive);
      }
      arr(typeof p.facetFilters === "string" ? [p.facetFilters] : p.facetFilters).forEach((f) => {
        if (!Array.isArray(f)) return facetFilter(f, true);
        var fields = {};
        f.forEach((s) => { fields[String(s).split(":")[0]] = 1; facetFilter(String(s), false); });
        if (Object.keys(fields).length > 1) throw fail("facet filters ORed across attributes are not mapped: " + JSON.stringify(f));
      });
      var ranges = {};
      arr(p.numericFilters).forEach((f) => {
        var m = typeof f === "string" && NUM.exec(f);
        if (!m) throw fail("numeric filter " + JSON.stringify(f) + " is not mapped");
        var r = ranges[m[1]] = ranges[m[1]] || ["", ""];
        if (m[2] !== "<=") r[0] = r[0] === "" ? m[3] : String(Math.max(+r[0], +m[3]));
        if (m[2] !== ">=") r[1] = r[1] === "" ? m[3] : String(Math.min(+r[1], +m[3]));
      });
      Object.keys(ranges).forEach((f) => { add(f, f + ":" + ranges[f].join(",")); });
      Object.keys(pl.byField).forEach((f) => {
        if (pl.conj[f] && pl.byField[f].length > 1) throw fail("several values of the conjunctive facet " + f + " are not mapped");
      });
      var hpp = p.hitsPerPage == null ? 20 : +p.hitsPerPage;
      pl.page = +p.page || 0;
      pl.hitsPerPage = hpp;
      pl.start = p.offset != null ? +p.offset : pl.page * hpp;
      pl.count = p.length != null ? +p.length : hpp;
      pl.fields = p.attributesToRetrieve && arr(p.attributesToRetrieve).indexOf("*") < 0 ? arr(p.attributesToRetrieve) : null;
      pl.sig = JSON.stringify([pl.key, pl.sorting, pl.query]);
      return pl;
    }

    // fieldsOf names the Aisle fields a request's facets read.
    function fieldsOf(pl) {
      var o = {};
      pl.facets.forEach((a) => { var h = hier(a); o[h ? h.field : a] = 1; });
      return o;
    }

    // answers says whether main's Aisle answer holds f's: a facet-only
    // request of the same query whose filters are main's less those on
    // the fields it counts (Aisle counts each field as if its own filter
    // were not applied) and with a hierarchy filter on a parent of main's.
    function answers(main, f) {
      if (f.sig !== main.sig || f.count !== 0 || main.count === 0) return false;
      var counted = fieldsOf(f);
      var all = Object.assign({}, main.byField, f.byField);
      return Object.keys(all).every((field) => {
        var a = JSON.stringify(main.byField[field] || []), b = JSON.stringify(f.byField[field] || []);
        if (a === b) return !counted[field] || !!main.conj[field] || !!main.hierPath[field];
        if (!counted[field] || main.conj[field]) return false;
        var mp = main.hierPath[field], fp = f.hierPath[field];
        if (!fp) return true; // f drops the field's filter
        return !!mp && fp.length < mp.length && fp.join("$") === mp.slice(0, fp.length).join("$");
      });
    }

    // aisleSearch runs a plan through the SDK, facets included when asked.
    function aisleSearch(pl) {
      var fields = pl.fields ? pl.fields.map((f) => { return f === "objectID" ? "productNumber" : f; }) : null;
      if (fields && fields.indexOf("productNumber") < 0) fields.push("productNumber");
      var filters = [].concat(arr(opt.filters));
      Object.keys(pl.byField).forEach((f) => { filters = filters.concat(pl.byField[f]); });
      var t0 = Date.now();
      return Aisle.search.search(pl.key, pl.query, {
        format: "JSON",
        filters: filters,
        sorting: pl.sorting,
        return_filters: pl.facets.length > 0,
        exclude_sibling_filters: Object.keys(pl.conj),
        product_fields: fields ? fields.join(",") : undefined,
        engine_options: { product: { start: pl.start, current_count: pl.count } },
        max_filter_values: 1e9,
        track: !!opt.trackSearches && pl.count > 0,
        device_type: opt.deviceType
      }).then((a) => { a.ms = Date.now() - t0; return a; });
    }

    // values are an Aisle filter's values by Algolia value: a LIST or
    // BOOLEAN facet's, or a hierarchy's nodes of one level.
    function facetOf(a, field) {
      return (a.filters || []).filter((f) => { return f.name === field; })[0];
    }
    function valueOf(v, field) { var q = String(v.query || ""); return q.slice(q.indexOf(":") + 1) || v.title; }

    function hierValues(f, field, level, path, nbHits) {
      var out = {};
      if (path && level < path.length) { // an ancestor of the filter's node, or the node: the node's count
        var node = (f.values || []).filter((v) => { return valueOf(v, field) === path.join("$") + "$"; })[0];
        out[path.slice(0, level + 1).join(sep)] = node ? node.count : nbHits;
        return out;
      }
      (f.values || []).forEach((v) => {
        var nodes = valueOf(v, field).split("$");
        if (nodes[nodes.length - 1] === "") nodes.pop();
        if (nodes.length !== level + 1) return;
        if (path && nodes.slice(0, path.length).join("$") !== path.join("$")) return;
        out[nodes.join(sep)] = v.count;
      });
      return out;
    }

    function highlight(hit, p, query) {
      var pre = p.highlightPreTag || "<em>", post = p.highlightPostTag || "</em>";
      var words = query.toLowerCase().split(/\s+/).filter(Boolean);
      var res = {};
      Object.keys(hit).forEach((k) => {
        var v = hit[k];
        if (typeof v !== "string" || k === "objectID") return;
        var matched = [];
        var value = words.length ? v.replace(/[\p{L}\p{N}]+/gu, (w) => {
          var lw = w.toLowerCase();
          for (var i = 0; i < words.length; i++) {
            if (lw.indexOf(words[i]) === 0) {
              if (matched.indexOf(words[i]) < 0) matched.push(words[i]);
              return pre + w.slice(0, words[i].length) + post + w.slice(words[i].length);
            }
          }
          return w;
        }) : v;
        res[k] = { value: value, matchLevel: !matched.length ? "none" : matched.length === words.length ? "full" : "partial", matchedWords: matched };
      });
      return res;
    }

    // result makes the Algolia result of plan pl from Aisle answer a.
    function result(pl, a, ms) {
      var p = pl.p, nbHits = a.product_results;
      var hpp = pl.hitsPerPage;
      var hits = pl.count === 0 || a.source !== pl ? [] : (a.results || []).map((r) => {
        var h = Object.assign({}, r);
        h.objectID = String(r.productNumber == null ? "" : r.productNumber);
        h._highlightResult = highlight(h, p, pl.query);
        return h;
      });
      var facets = {}, stats = {};
      var max = p.maxValuesPerFacet != null ? +p.maxValuesPerFacet : 1e9;
      pl.facets.forEach((attr) => {
        if (attr === "*") return;
        var h = hier(attr), field = h ? h.field : attr, f = facetOf(a, field);
        if (!f) return;
        if (h) {
          facets[attr] = hierValues(f, field, h.level, pl.hierPath[field], nbHits);
        } else if (f.settings && f.settings.type === "RANGE") {
          facets[attr] = {};
          var lo = num(f.min), hi = num(f.max);
          if (isFinite(lo) && isFinite(hi)) stats[attr] = { min: lo, max: hi, avg: (lo + hi) / 2, sum: 0 };
        } else {
          var vals = {};
          (f.values || []).slice().sort((x, y) => { return y.count - x.count; }).slice(0, max).forEach((v) => {
            vals[valueOf(v, field)] = v.count;
          });
          facets[attr] = vals;
        }
      });
      var limit = hpp > 0 ? Math.floor(100000 / hpp) : 0;
      return {
        hits: hits,
        nbHits: nbHits,
        page: pl.page,
        nbPages: hpp > 0 ? Math.min(Math.ceil(nbHits / hpp), limit) : 0,
        hitsPerPage: hpp,
        processingTimeMS: ms,
        facets: facets,
        facets_stats: stats,
        exhaustiveFacetsCount: true,
        exhaustiveNbHits: true,
        exhaustive: { facetsCount: true, nbHits: true },
        query: pl.query,
        params: "",
        index: pl.req.indexName,
        renderingContent: {}
      };
    }

    // facetHits answers a search for facet values from the facet's values.
    function facetHits(pl, a) {
      var p = pl.p, name = p.facetName || pl.req.facet, q = String(p.facetQuery || "").toLowerCase();
      var h = hier(name), field = h ? h.field : name, f = facetOf(a, field);
      var vals = [];
      if (f) {
        var obj = h ? hierValues(f, field, h.level, null, a.product_results) : null;
        (obj ? Object.keys(obj).map((k) => { return { value: k, count: obj[k] }; }) :
          (f.values || []).map((v) => { return { value: valueOf(v, field), count: v.count }; })
        ).forEach((v) => {
          var at = v.value.toLowerCase().indexOf(q);
          if (q && (at < 0 || (at > 0 && /[\p{L}\p{N}]/u.test(v.value.charAt(at - 1))))) return;
          var hl = q ? v.value.slice(0, at) + (p.highlightPreTag || "<em>") + v.value.slice(at, at + q.length) + (p.highlightPostTag || "</em>") + v.value.slice(at + q.length) : v.value;
          vals.push({ value: v.value, highlighted: hl, count: v.count });
        });
      }
      vals.sort((x, y) => { return y.count - x.count; });
      return { facetHits: vals.slice(0, p.maxFacetHits != null ? +p.maxFacetHits : 10), exhaustiveFacetsCount: true, processingTimeMS: a.ms || 0 };
    }

    // search answers a batch: each request from its own Aisle search, or
    // from the answer of a main request of the batch that holds it.
    function search(requests) {
      var reqs = Array.isArray(requests) ? requests : requests && requests.requests || [];
      return new Promise((resolve) => {
        var plans = reqs.map((r) => {
          var pl = plan(r || {});
          if (r.type === "facet") {
            pl.sff = true;
            pl.facets = [pl.p.facetName || r.facet];
            pl.count = 0;
          }
          return pl;
        });
        var runs = [];
        plans.forEach((pl) => {
          var main = pl.sff ? null : plans.filter((m) => { return m.run && answers(m, pl); })[0];
          if (main) { pl.from = main; return; }
          pl.run = aisleSearch(pl).then((a) => { a.source = pl; return a; });
          runs.push(pl.run);
        });
        resolve(Promise.all(plans.map((pl) => {
          return (pl.run || pl.from.run).then((a) => { return pl.sff ? facetHits(pl, a) : result(pl, a, a.ms); });
        })));
      }).then((results) => { return { results: results }; });
    }

    return {
      search: search,
      // searchForFacetValues takes the requests algoliasearch v4 sends:
      // [{indexName, params: {facetName, facetQuery, maxFacetHits, ...}}].
      searchForFacetValues: (requests) => {
        return Promise.all(arr(requests).map((r) => {
          var pl = plan(r);
          pl.facets = [pl.p.facetName];
          pl.count = 0;
          return aisleSearch(pl).then((a) => { return facetHits(pl, a); });
        }));
      },
      clearCache: () => { return Promise.resolve(); },
      addAlgoliaAgent: () => {}
    };
  }

  Aisle.instantsearch = { searchClient: searchClient };
})(window.Aisle);
