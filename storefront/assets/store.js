// The demo storefront: a shop's search, category and product pages built
// only on Aisle's browser SDK (window.Aisle, from /sdk.js). It sends no
// request of its own: searches, the category page, recommendations and
// tracking all go through the SDK, as they would on a shop's own site.
(() => {
  "use strict";

  // The demo's two websites (cmd/aisle demo): the English shop has a
  // category page and recommendation boxes; the Danish one is searched
  // only, and its product pages ask for unmanaged recommendations.
  const SITES = {
    en: {
      uuid: "00000000-0000-4000-8000-000000000001", key: "demo", lang: "en", page: "demo",
      boxes: ["demo-alternatives", "demo-bought-together"],
      text: {
        shop: "Aisle Demo Shop", search: "Search products", placeholder: "Search products: lamp, drill, sofa…",
        all: "All products", category: "Garden", switchTo: "English shop", filters: "Filters", sort: "Sort by",
        relevance: "Relevance", results: (n, q) => q ? `${n} ${n === 1 ? "product" : "products"} for “${q}”` : `${n} products`,
        none: (q) => `No products match “${q}”. Try another word or clear the filters.`, loading: "Loading…",
        clear: "Clear all filters", remove: (t) => `Remove filter ${t}`, price: "Price", from: "From", to: "To",
        categories: "Category", allCategories: "All categories", showMore: (n) => `Show ${n} more`, showLess: "Show fewer",
        prev: "Previous", next: "Next", page: (n) => `Page ${n}`, sponsored: "Sponsored", outOfStock: "Out of stock",
        inStock: "In stock", back: "Back to the results", addToCart: "Add to cart", added: "Added to your cart",
        alternatives: "You may also like", boughtTogether: "Bought together", features: "Features",
        failed: "The shop could not answer: ", notFound: (pn) => `No product ${pn}.`, pageOf: (p, n) => `Page ${p} of ${n}`,
        foot: "A demo of Aisle, a retail search engine: every result on this page comes from its public API through the browser SDK.",
        instantsearch: "InstantSearch page", skip: "Skip to the products",
      },
    },
    da: {
      uuid: "00000000-0000-4000-8000-000000000002", key: "demo-da", lang: "da", page: "",
      boxes: [],
      text: {
        shop: "Aisle Demo Butik", search: "Søg efter produkter", placeholder: "Søg: sofabord, gryde, skruetrækker…",
        all: "Alle produkter", category: "", switchTo: "Dansk butik", filters: "Filtre", sort: "Sortér efter",
        relevance: "Relevans", results: (n, q) => q ? `${n} ${n === 1 ? "produkt" : "produkter"} for “${q}”` : `${n} produkter`,
        none: (q) => `Ingen produkter matcher “${q}”. Prøv et andet ord, eller ryd filtrene.`, loading: "Henter…",
        clear: "Ryd alle filtre", remove: (t) => `Fjern filteret ${t}`, price: "Pris", from: "Fra", to: "Til",
        categories: "Kategori", allCategories: "Alle kategorier", showMore: (n) => `Vis ${n} mere`, showLess: "Vis færre",
        prev: "Forrige", next: "Næste", page: (n) => `Side ${n}`, sponsored: "Sponsoreret", outOfStock: "Udsolgt",
        inStock: "På lager", back: "Tilbage til resultaterne", addToCart: "Læg i kurv", added: "Lagt i din kurv",
        alternatives: "Du kan også lide", boughtTogether: "Købes ofte sammen", features: "Egenskaber",
        failed: "Butikken kunne ikke svare: ", notFound: (pn) => `Intet produkt ${pn}.`, pageOf: (p, n) => `Side ${p} af ${n}`,
        foot: "En demo af Aisle, en søgemaskine til webbutikker: alle resultater på siden kommer fra dens API gennem browser-SDK'et.",
        instantsearch: "InstantSearch-side", skip: "Spring til produkterne",
      },
    },
  };
  const PER_PAGE = 12;
  const DEBOUNCE_MS = 180;
  // SETTLE_MS: a phrase shown this long with no newer keystroke is the
  // search the visitor settled on, and is tracked (Enter tracks at once);
  // the searches made while typing are sent with track: false.
  const SETTLE_MS = 1000;
  const FACET_VALUES_SHOWN = 6;
  const FIELDS = "productNumber,title,brand,price,priceFormatted,previousPrice,priceLowered,currency,inStock,isOnSale,hierarchies,description,extraData,extraDataList,extraDataNumber,url";
  const BOX_FIELDS = ["productNumber", "title", "brand", "price", "priceFormatted", "previousPrice", "priceLowered", "inStock", "hierarchies", "url"];

  const $ = (id) => document.getElementById(id);

  // el makes an element: attrs are properties ("class" and names with a
  // dash or "aria"/"data" are attributes), children are nodes or text.
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") e.className = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (k.includes("-") || k === "role" || k === "for") e.setAttribute(k, v === true ? "" : String(v));
      else e[k] = v;
    }
    for (const c of children.flat()) {
      if (c === undefined || c === null || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  // state is what the list shows; the URL's hash holds the route only.
  const state = {
    site: sessionStorage.getItem("aisle-demo-site") === "da" ? "da" : "en",
    mode: "search", // "search" or "category"
    q: "",
    filters: [], // filter strings, as the answers' values give them
    sort: "",
    page: 0,
    facets: null, // the last answer's filters and sorting
    sorting: null,
    expanded: new Set(), // facets showing all their values
  };
  const products = new Map(); // product number -> the last item seen, for the product page
  let seq = 0; // the latest list request: older answers are dropped

  const site = () => SITES[state.site];
  const t = () => site().text;

  function aisle() {
    if (!window.Aisle) throw new Error("the SDK (/sdk.js) did not load");
    return window.Aisle;
  }

  // ---- the list: search results or the category page ----

  function listOptions(withFacets) {
    return {
      format: "JSON",
      filters: state.filters.slice(),
      sorting: state.sort ? [state.sort] : [],
      return_filters: withFacets,
      product_fields: FIELDS,
      engine_options: { product: { start: state.page * PER_PAGE, current_count: PER_PAGE } },
      track: false, // trackSettled tracks the phrase the visitor settles on
    };
  }

  // trackSettled tracks the search of phrase q (total products) once the
  // visitor settles on it: after SETTLE_MS without a keystroke, or at
  // once after Enter. The SDK sends nothing for the phrase it tracked
  // last, so a refinement of the same search is not a new one.
  let settleTimer = 0;
  let trackNow = false;
  function trackSettled(q, total) {
    clearTimeout(settleTimer);
    if (!q) return;
    const send = () => { aisle().track.search(q, total).catch(() => { /* tracking never breaks the page */ }); };
    if (trackNow) send();
    else settleTimer = setTimeout(send, SETTLE_MS);
    trackNow = false;
  }

  // fetchList asks the SDK for the list and answers one shape:
  // {total, start, results, filters, sorting}.
  async function fetchList(withFacets) {
    const opts = listOptions(withFacets);
    if (state.mode === "category") {
      const ans = await aisle().pages.load(site().page, {
        url: location.href, firstLoad: withFacets, format: "json", params: { filters: {} },
        products: {
          start: opts.engine_options.product.start, count: PER_PAGE, fields: FIELDS.split(","),
          filters: opts.filters, sorting: opts.sorting,
        },
      });
      const p = ans.products || {};
      return { total: p.total || 0, start: p.start || 0, results: p.result || [], filters: p.filters, sorting: p.sorting };
    }
    const ans = await aisle().search.search(site().key, state.q || "*", opts);
    return { total: ans.product_results || 0, start: ans.product_start || 0, results: ans.results || [], filters: ans.filters, sorting: ans.sorting };
  }

  // load runs the list's request and shows its answer; withFacets is
  // false when only the page changed (the facets stay as they were).
  async function load(withFacets = true) {
    const mine = ++seq;
    $("results").setAttribute("aria-busy", "true");
    $("status").textContent = "";
    let ans;
    try {
      ans = await fetchList(withFacets || !state.facets);
    } catch (err) {
      if (mine !== seq) return;
      $("results").removeAttribute("aria-busy");
      $("results").replaceChildren();
      $("pager").replaceChildren();
      $("count").textContent = "";
      $("status").textContent = t().failed + errorText(err);
      return;
    }
    if (mine !== seq) return;
    if (ans.filters) state.facets = ans.filters;
    if (ans.sorting) state.sorting = ans.sorting;
    renderList(ans);
  }

  function errorText(err) {
    if (err && err.error) return err.error.message || err.error.code || String(err.error.status);
    return (err && err.message) || String(err);
  }

  function renderList(ans) {
    const q = state.mode === "search" ? state.q : "";
    $("results").removeAttribute("aria-busy");
    $("count").textContent = t().results(ans.total, q);
    if (q) trackSettled(q, ans.total);
    $("status").textContent = ans.total === 0 ? t().none(q || "*") : "";
    $("results").replaceChildren(...ans.results.map((p, i) => card(p, {
      source: state.mode === "category" ? "pages" : "search",
      key: state.mode === "category" ? site().page : site().key,
      position: ans.start + i + 1,
    })));
    renderFacets();
    renderChips();
    renderSort();
    renderPager(ans.total);
  }

  // hue picks one of the tile colours for a product, by its number.
  function hue(pn) {
    let h = 0;
    for (const c of String(pn)) h = (h * 31 + c.charCodeAt(0)) >>> 0;
    return h % 8;
  }

  function category(p) {
    const h = p.hierarchies && p.hierarchies[0];
    return h && h.length ? h[h.length - 1] : "";
  }

  // tile stands in for a product photo: the demo catalog's images are
  // not served, and the page loads nothing from other sites.
  function tile(p, big) {
    const initials = (p.brand || p.title || "?").split(/\s+/).slice(0, 2).map((w) => w[0] || "").join("");
    return el("div", { class: `tile hue-${hue(p.productNumber)}${big ? " tile-big" : ""}`, "aria-hidden": "true" },
      el("span", { class: "tile-mark" }, initials),
      el("span", { class: "tile-cat" }, category(p)));
  }

  function price(p) {
    const now = p.priceFormatted || (p.price !== undefined ? String(p.price) : "");
    const was = p.priceLowered && p.previousPrice ? formatLike(p.previousPrice, p) : "";
    return el("p", { class: "price" },
      el("span", { class: was ? "now sale" : "now" }, now),
      was ? el("s", { class: "was" }, was) : null);
  }

  // formatLike writes n as the product's priceFormatted writes its price.
  function formatLike(n, p) {
    const f = p.priceFormatted || "";
    if (f.startsWith("$")) return "$" + Number(n).toFixed(2);
    if (f.endsWith("kr.")) return Number(n).toFixed(2).replace(".", ",") + " kr.";
    return String(n);
  }

  // card is a product in a list; its link opens the product page, and
  // the click is tracked with where the product was shown.
  function card(p, shown) {
    products.set(p.productNumber, p);
    const href = "#/product/" + encodeURIComponent(p.productNumber);
    return el("li", { class: "card" + (p.sponsored ? " card-sponsored" : "") },
      el("a", {
        href, class: "card-link", "data-product": p.productNumber,
        onclick: () => { try { aisle().track.click(p.productNumber, shown); } catch (_) { /* tracking never blocks a click */ } },
      },
      tile(p),
      el("span", { class: "card-body" },
        p.sponsored ? el("span", { class: "badge badge-sponsored" }, t().sponsored) : null,
        el("span", { class: "brand" }, p.brand || ""),
        el("span", { class: "title" }, p.title || p.productNumber),
        price(p),
        p.inStock === false ? el("span", { class: "badge badge-stock" }, t().outOfStock) : null)));
  }

  // ---- facets ----

  const isHierarchy = (f) => f.name === "hierarchies" || (f.values || []).some((v) => /\$$/.test(v.query || ""));

  function renderFacets() {
    const box = $("facets");
    const groups = [];
    for (const f of state.facets || []) {
      const type = f.settings && f.settings.type;
      if (type === "RANGE") {
        const g = rangeFacet(f);
        if (g) groups.push(g);
      } else if (isHierarchy(f)) {
        if ((f.values || []).length) groups.push(hierarchyFacet(f));
      } else if (type === "BOOLEAN") {
        const g = booleanFacet(f);
        if (g) groups.push(g);
      } else if ((f.values || []).length) {
        groups.push(listFacet(f));
      }
    }
    box.replaceChildren(...groups);
  }

  const title = (f) => (f.settings && f.settings.title) || f.name;
  const safeId = (s) => s.replace(/[^a-zA-Z0-9_-]/g, "_");

  function toggleFilter(query, on) {
    state.filters = state.filters.filter((q) => q !== query);
    if (on) state.filters.push(query);
    state.page = 0;
    load();
  }

  function checkbox(f, v, label) {
    const id = `f-${safeId(f.name)}-${safeId(v.query)}`;
    return el("li", { class: "check" },
      el("input", { type: "checkbox", id, checked: !!v.selected, "data-query": v.query, onchange: (e) => toggleFilter(v.query, e.target.checked) }),
      el("label", { for: id }, el("span", { class: "check-title" }, label), el("span", { class: "check-count" }, String(v.count))));
  }

  function listFacet(f) {
    const values = f.values;
    const all = state.expanded.has(f.name);
    const shown = all ? values : values.filter((v, i) => i < FACET_VALUES_SHOWN || v.selected);
    const more = values.length - shown.length;
    return el("fieldset", { class: "facet", "data-facet": f.name },
      el("legend", {}, title(f)),
      el("ul", { class: "checks" }, shown.map((v) => checkbox(f, v, v.title))),
      values.length > FACET_VALUES_SHOWN ? el("button", {
        type: "button", class: "link-button", "aria-expanded": String(all),
        onclick: () => { all ? state.expanded.delete(f.name) : state.expanded.add(f.name); renderFacets(); },
      }, all ? t().showLess : t().showMore(more)) : null);
  }

  function booleanFacet(f) {
    const v = (f.values || []).find((x) => x.title === "true");
    if (!v) return null;
    return el("fieldset", { class: "facet", "data-facet": f.name },
      el("legend", {}, title(f)),
      el("ul", { class: "checks" }, checkbox(f, v, f.settings.filteringText || title(f))));
  }

  // hierarchyFacet drills down: the chosen category's path, then its
  // subcategories (or the top level when none is chosen). Choosing one
  // replaces the category filter.
  function hierarchyFacet(f) {
    const prefix = f.name + ":";
    const pathOf = (query) => query.slice(prefix.length).split("$").filter(Boolean);
    const chosen = state.filters.find((q) => q.startsWith(prefix));
    const path = chosen ? pathOf(chosen) : [];
    const byPath = new Map(f.values.map((v) => [pathOf(v.query).join("$"), v]));
    const setCategory = (query) => {
      state.filters = state.filters.filter((q) => !q.startsWith(prefix));
      if (query) state.filters.push(query);
      state.page = 0;
      load();
    };
    const item = (label, query, opts = {}) => el("li", { class: "cat" + (opts.current ? " cat-current" : "") + (opts.depth ? ` cat-d${opts.depth}` : "") },
      el("button", { type: "button", class: "cat-button", "aria-current": opts.current ? "true" : null, "data-query": query || "", onclick: () => setCategory(query) },
        el("span", {}, label), opts.count !== undefined ? el("span", { class: "check-count" }, String(opts.count)) : null));
    const items = [];
    if (path.length) {
      items.push(item("‹ " + t().allCategories, ""));
      path.forEach((name, i) => {
        const key = path.slice(0, i + 1).join("$");
        const v = byPath.get(key);
        items.push(item(name, prefix + key + "$", { current: i === path.length - 1, depth: i, count: v && v.count }));
      });
    }
    const children = f.values.filter((v) => {
      const p = pathOf(v.query);
      return p.length === path.length + 1 && path.every((n, i) => p[i] === n);
    });
    for (const v of children) items.push(item(v.title, v.query, { depth: path.length + (path.length ? 1 : 0), count: v.count }));
    return el("fieldset", { class: "facet facet-cats", "data-facet": f.name },
      el("legend", {}, title(f)),
      el("ul", { class: "cats" }, items));
  }

  // rangeFacet is a price slider: two range inputs, the lower and upper
  // end, applied when let go (a "change"), shown while moved.
  function rangeFacet(f) {
    const lo = Number(f.min), hi = Number(f.max);
    if (!isFinite(lo) || !isFinite(hi) || hi <= lo) return null;
    const min = Math.floor(lo), max = Math.ceil(hi);
    const selMin = f.selectedMin !== undefined ? Number(f.selectedMin) : min;
    const selMax = f.selectedMax !== undefined ? Number(f.selectedMax) : max;
    const money = (n) => state.site === "da" ? `${n} kr.` : `$${n}`;
    const id = safeId(f.name);
    const out = el("output", { class: "range-out", id: `r-${id}-out`, for: `r-${id}-min r-${id}-max` }, `${money(selMin)} – ${money(selMax)}`);
    const step = max - min > 200 ? 5 : 1;
    const a = el("input", { type: "range", id: `r-${id}-min`, min, max, step, value: selMin, "aria-label": `${title(f)}: ${t().from}`, "data-end": "min" });
    const b = el("input", { type: "range", id: `r-${id}-max`, min, max, step, value: selMax, "aria-label": `${title(f)}: ${t().to}`, "data-end": "max" });
    const show = () => {
      let x = Number(a.value), y = Number(b.value);
      if (x > y) [x, y] = [y, x];
      out.textContent = `${money(x)} – ${money(y)}`;
      return [x, y];
    };
    const apply = () => {
      const [x, y] = show();
      const query = `${f.name}:${x},${y}`;
      state.filters = state.filters.filter((q) => !q.startsWith(f.name + ":"));
      if (x > min || y < max) state.filters.push(query);
      state.page = 0;
      load();
    };
    for (const input of [a, b]) {
      input.addEventListener("input", show);
      input.addEventListener("change", apply);
    }
    return el("fieldset", { class: "facet facet-range", "data-facet": f.name },
      el("legend", {}, title(f)), out,
      el("div", { class: "range" }, a, b));
  }

  // renderChips lists the filters applied, each removable.
  function renderChips() {
    const chips = state.filters.map((q) => {
      const [field, value] = [q.slice(0, q.indexOf(":")), q.slice(q.indexOf(":") + 1)];
      const facet = (state.facets || []).find((f) => f.name === field);
      let label = value.replace(/\$$/, "").split("$").join(" › ");
      if (facet && facet.settings && facet.settings.type === "RANGE") label = `${title(facet)} ${value.replace(",", " – ")}`;
      else if (facet && facet.settings && facet.settings.type === "BOOLEAN") label = facet.settings.filteringText || title(facet);
      return el("button", { type: "button", class: "chip", "aria-label": t().remove(label), onclick: () => toggleFilter(q, false) },
        label, el("span", { "aria-hidden": "true" }, " ×"));
    });
    if (chips.length > 1) {
      chips.push(el("button", { type: "button", class: "chip chip-clear", onclick: () => { state.filters = []; state.page = 0; load(); } }, t().clear));
    }
    $("chips").replaceChildren(...chips);
  }

  // renderSort offers relevance and the answer's sorting options.
  function renderSort() {
    const sel = $("sort");
    const opts = [el("option", { value: "" }, t().relevance)];
    for (const s of state.sorting || []) {
      const st = s.settings || {};
      for (const [dir, text] of [["ascending", st.ascendingText], ["descending", st.descendingText]]) {
        if (!s[dir]) continue;
        opts.push(el("option", { value: s[dir].query }, `${st.title || s.name}: ${text || dir}`));
      }
    }
    sel.replaceChildren(...opts);
    sel.value = state.sort;
  }

  function renderPager(total) {
    const pages = Math.ceil(total / PER_PAGE);
    const nav = $("pager");
    if (pages <= 1) { nav.replaceChildren(); return; }
    const go = (p) => () => { state.page = p; load(false); $("main").focus({ preventScroll: true }); window.scrollTo({ top: 0 }); };
    const nums = new Set([0, pages - 1]);
    for (let p = state.page - 2; p <= state.page + 2; p++) if (p >= 0 && p < pages) nums.add(p);
    const items = [];
    items.push(el("button", { type: "button", class: "page-step", disabled: state.page === 0, onclick: go(state.page - 1) }, "‹ " + t().prev));
    let last = -1;
    for (const p of [...nums].sort((x, y) => x - y)) {
      if (p > last + 1) items.push(el("span", { class: "gap", "aria-hidden": "true" }, "…"));
      items.push(el("button", {
        type: "button", class: "page-num", "aria-label": t().page(p + 1), "aria-current": p === state.page ? "page" : null,
        "data-page": p + 1, onclick: go(p),
      }, String(p + 1)));
      last = p;
    }
    items.push(el("button", { type: "button", class: "page-step", disabled: state.page >= pages - 1, onclick: go(state.page + 1) }, t().next + " ›"));
    items.push(el("span", { class: "sr-only" }, t().pageOf(state.page + 1, pages)));
    nav.replaceChildren(...items);
  }

  // ---- the product page ----

  async function productFor(pn) {
    if (products.has(pn)) return products.get(pn);
    // A product page opened directly: its number is a search's best match.
    const ans = await aisle().search.search(site().key, pn, { format: "JSON", product_fields: FIELDS, engine_options: { product: { start: 0, current_count: 5 } }, track: false });
    const p = (ans.results || []).find((x) => x.productNumber === pn);
    if (p) products.set(pn, p);
    return p;
  }

  // boxRequests asks for the product's two boxes: the English shop's
  // managed boxes, or unmanaged requests on a website that has none.
  function boxRequests(pn) {
    const context = { productNumbers: [pn] };
    if (site().boxes.length) return site().boxes.map((key) => ({ key, context, format: "json", fields: BOX_FIELDS }));
    return [
      { trackingKey: "storefront-alternatives", count: 8, fields: BOX_FIELDS, context, sources: [{ type: "ALTERNATIVES" }, { type: "TOP" }] },
      { trackingKey: "storefront-bought-together", count: 4, fields: BOX_FIELDS, context, sources: [{ type: "BOUGHT_TOGETHER" }, { type: "MOST_BOUGHT" }] },
    ];
  }

  async function showProduct(pn) {
    const view = $("view-product");
    $("view-list").hidden = true;
    view.hidden = false;
    view.replaceChildren(el("p", { class: "status" }, t().loading));
    let p;
    try {
      p = await productFor(pn);
    } catch (err) {
      view.replaceChildren(el("p", { class: "status", role: "alert" }, t().failed + errorText(err)));
      return;
    }
    if (route().view !== "product" || route().pn !== pn) return;
    const back = el("a", { href: "#/", class: "back", onclick: (e) => { if (history.length > 1 && state.cameFromList) { e.preventDefault(); history.back(); } } }, "‹ " + t().back);
    if (!p) { view.replaceChildren(back, el("p", { class: "status", role: "alert" }, t().notFound(pn))); return; }
    try { aisle().track.view({ productNumber: pn, url: p.url || location.href }); } catch (_) { /* tracking never breaks the page */ }
    const note = el("p", { class: "cart-note", role: "status" });
    const features = (p.extraDataList && p.extraDataList.features) || [];
    const facts = Object.entries(p.extraData || {}).map(([k, v]) => el("li", {}, el("span", { class: "fact-k" }, k), " ", v));
    const heading = el("h1", { id: "product-title", tabindex: "-1" }, p.title);
    view.replaceChildren(
      back,
      el("article", { class: "product", "aria-labelledby": "product-title" },
        tile(p, true),
        el("div", { class: "product-info" },
          el("p", { class: "crumbs" }, ((p.hierarchies && p.hierarchies[0]) || []).join(" › ")),
          heading,
          el("p", { class: "brand" }, p.brand || ""),
          price(p),
          el("p", { class: p.inStock === false ? "stock out" : "stock" }, p.inStock === false ? t().outOfStock : t().inStock),
          el("p", { class: "desc" }, p.description || ""),
          features.length ? el("div", {}, el("h2", { class: "h-small" }, t().features), el("ul", { class: "features" }, features.map((x) => el("li", {}, x)))) : null,
          facts.length ? el("ul", { class: "facts" }, facts) : null,
          el("button", {
            type: "button", class: "cta", disabled: p.inStock === false,
            onclick: () => { note.textContent = t().added; try { aisle().track.cart([pn]); } catch (_) { /* as above */ } },
          }, t().addToCart),
          note)),
      box("box-alternatives", t().alternatives),
      box("box-bought-together", t().boughtTogether));
    heading.focus({ preventScroll: true });
    window.scrollTo({ top: 0 });
    let ans;
    try {
      ans = await aisle().recoms.load(boxRequests(pn));
    } catch (err) {
      for (const id of ["box-alternatives", "box-bought-together"]) $(id).querySelector("ul").replaceChildren(el("li", { class: "status" }, t().failed + errorText(err)));
      return;
    }
    if (route().pn !== pn) return;
    const reqs = boxRequests(pn);
    ["box-alternatives", "box-bought-together"].forEach((id, i) => {
      const r = (ans.responses || [])[i] || {};
      const list = $(id).querySelector("ul");
      list.removeAttribute("aria-busy");
      list.replaceChildren(...(r.products || []).map((x, j) => card(x, { source: "recoms", key: reqs[i].key || reqs[i].trackingKey, position: j + 1 })));
      $(id).hidden = !(r.products || []).length;
    });
  }

  function box(id, heading) {
    return el("section", { class: "box", id, "aria-labelledby": id + "-h" },
      el("h2", { id: id + "-h" }, heading),
      el("ul", { class: "grid grid-box", "aria-busy": "true" }));
  }

  // ---- routes and the site switch ----

  function route() {
    const h = decodeURIComponent(location.hash.replace(/^#\/?/, ""));
    if (h.startsWith("product/")) return { view: "product", pn: h.slice("product/".length) };
    if (h.startsWith("category")) return { view: site().page ? "category" : "search" };
    return { view: "search" };
  }

  let lastList = ""; // the list last shown, so going back to it keeps its state
  let fromProduct = false;
  function onRoute() {
    const r = route();
    if (r.view === "product") {
      state.cameFromList = lastList !== "";
      fromProduct = true;
      showProduct(r.pn);
      return;
    }
    const back = fromProduct;
    fromProduct = false;
    $("view-product").hidden = true;
    $("view-product").replaceChildren();
    $("view-list").hidden = false;
    const mode = r.view === "category" ? "category" : "search";
    $("nav-search").setAttribute("aria-current", mode === "search" ? "page" : "false");
    $("nav-category").setAttribute("aria-current", mode === "category" ? "page" : "false");
    $("list-title").textContent = mode === "category" ? t().category : state.q ? `“${state.q}”` : t().all;
    if (back && mode === state.mode && lastList === mode && state.facets) return; // back from a product: as it was
    if (mode !== state.mode) {
      // Another list: none of the last one's facets apply.
      Object.assign(state, { filters: [], sort: "", page: 0, facets: null, sorting: null });
      $("facets").replaceChildren();
      $("chips").replaceChildren();
    }
    state.mode = mode;
    lastList = mode;
    load();
  }

  function applyText() {
    const x = t();
    document.documentElement.lang = site().lang;
    document.title = x.shop;
    $("shop-name").textContent = x.shop;
    $("q-label").textContent = x.search;
    $("q").placeholder = x.placeholder;
    $("nav-search").textContent = x.all;
    $("nav-category").textContent = x.category;
    $("nav-category").hidden = !site().page;
    $("nav-instantsearch").textContent = x.instantsearch;
    $("filters-toggle").textContent = x.filters;
    $("sort-label").textContent = x.sort;
    $("foot-text").textContent = x.foot;
    document.querySelector(".skip").textContent = x.skip;
    const other = state.site === "en" ? SITES.da : SITES.en;
    const sw = $("site-switch");
    sw.textContent = other.text.switchTo;
    sw.lang = other.lang;
    sw.setAttribute("aria-pressed", String(state.site === "da"));
  }

  function useSite(name) {
    state.site = name;
    sessionStorage.setItem("aisle-demo-site", name);
    aisle().init({ websiteUuid: site().uuid, baseUrl: location.origin });
    Object.assign(state, { mode: "search", q: "", filters: [], sort: "", page: 0, facets: null, sorting: null });
    state.expanded.clear();
    products.clear();
    $("q").value = "";
    lastList = "";
    applyText();
    if (location.hash && location.hash !== "#/") location.hash = "#/";
    else onRoute();
  }

  function start() {
    let timer = 0;
    $("q").addEventListener("input", (e) => {
      clearTimeout(timer);
      clearTimeout(settleTimer); // still typing
      timer = setTimeout(() => {
        state.q = e.target.value.trim();
        state.filters = [];
        state.page = 0;
        if (route().view !== "search" || state.mode !== "search") {
          state.mode = "search";
          state.facets = null;
          lastList = "search";
          if (location.hash && location.hash !== "#/") {
            location.hash = "#/";
            return; // the route change loads
          }
          onRoute();
          return;
        }
        $("list-title").textContent = state.q ? `“${state.q}”` : t().all;
        load();
      }, DEBOUNCE_MS);
    });
    $("search-form").addEventListener("submit", (e) => {
      e.preventDefault();
      clearTimeout(timer);
      trackNow = true;
      $("q").dispatchEvent(new Event("input"));
    });
    $("sort").addEventListener("change", (e) => { state.sort = e.target.value; state.page = 0; load(); });
    $("site-switch").addEventListener("click", () => useSite(state.site === "en" ? "da" : "en"));
    $("filters-toggle").addEventListener("click", (e) => {
      const open = e.currentTarget.getAttribute("aria-expanded") !== "true";
      e.currentTarget.setAttribute("aria-expanded", String(open));
      $("facets").classList.toggle("open", open);
    });
    window.addEventListener("hashchange", onRoute);
    if (state.site !== "en") aisle().init({ websiteUuid: site().uuid, baseUrl: location.origin });
    applyText();
    onRoute();
  }

  try {
    start();
  } catch (err) {
    $("status").textContent = (SITES[state.site] || SITES.en).text.failed + errorText(err);
  }
})();
