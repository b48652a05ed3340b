// The demo shop's search page built with InstantSearch.js widgets on
// Aisle's InstantSearch client: the widgets and their requests are
// InstantSearch's own, Aisle.instantsearch.searchClient answers them.
(() => {
  "use strict";
  const { widgets } = instantsearch;
  const KEY = "demo";

  // Index names: the configuration key, then ":" and a sorting string.
  const search = instantsearch({
    indexName: KEY,
    searchClient: Aisle.instantsearch.searchClient({ key: KEY }),
    future: { preserveSharedStateOnUnmount: true },
  });

  // The filters' names as the page shows them.
  const LABELS = { "hierarchies.lvl0": "Category", brand: "Brand", "extraData.color": "Colour", price: "Price" };
  const money = (n) => "$" + Number(n).toFixed(2);

  search.addWidgets([
    widgets.configure({ hitsPerPage: 12 }),
    widgets.searchBox({
      container: "#searchbox",
      placeholder: "Search products: lamp, drill, sofa…",
      showLoadingIndicator: true,
      searchAsYouType: true,
      queryHook: (() => {
        let timer = 0;
        return (query, refine) => { clearTimeout(timer); timer = setTimeout(() => refine(query), 150); };
      })(),
      cssClasses: { input: "is-input" },
    }),
    widgets.stats({
      container: "#stats",
      templates: {
        text: (d, { html }) => html`${d.nbHits} ${d.nbHits === 1 ? "product" : "products"}${d.query ? html` for “${d.query}”` : ""}`,
      },
    }),
    widgets.sortBy({
      container: "#sort-by",
      items: [
        { label: "Relevance", value: KEY },
        { label: "Price: lowest first", value: KEY + ":price asc" },
        { label: "Price: highest first", value: KEY + ":price desc" },
        { label: "Newest first", value: KEY + ":created desc" },
        { label: "Highest rated", value: KEY + ":extraDataNumber.rating desc" },
      ],
      cssClasses: { select: "is-select" },
    }),
    widgets.currentRefinements({
      container: "#current",
      transformItems: (items) => items.map((item) => ({ ...item, label: LABELS[item.attribute] || item.label })),
    }),
    widgets.hierarchicalMenu({
      container: "#categories",
      attributes: ["hierarchies.lvl0", "hierarchies.lvl1", "hierarchies.lvl2"],
      limit: 12,
    }),
    widgets.refinementList({ container: "#brand", attribute: "brand", limit: 6, showMore: true, showMoreLimit: 30 }),
    widgets.refinementList({ container: "#color", attribute: "extraData.color", limit: 6, showMore: true, showMoreLimit: 30 }),
    widgets.rangeInput({
      container: "#price",
      attribute: "price",
      // Templates are functions: a string template is compiled with
      // new Function, which the page's Content-Security-Policy forbids.
      templates: { separatorText: () => "to", submitText: () => "Apply" },
    }),
    widgets.hits({
      container: "#hits",
      cssClasses: { list: "grid", item: "is-hit" },
      templates: {
        item: (hit, { html, sendEvent }) => html`<a class="card-link" href="/#/product/${encodeURIComponent(hit.productNumber)}"
            data-product="${hit.productNumber}" onClick=${() => { try { Aisle.track.click(hit.productNumber, { source: "search", key: KEY, position: hit.__position }); } catch (_) { /* never blocks */ } }}>
          <div class="tile hue-${hue(hit.productNumber)}" aria-hidden="true"><span class="tile-mark">${initials(hit)}</span><span class="tile-cat">${category(hit)}</span></div>
          <span class="card-body">
            ${hit.sponsored ? html`<span class="badge badge-sponsored">Sponsored</span>` : ""}
            <span class="brand">${hit.brand || ""}</span>
            <span class="title">${hit.title}</span>
            <p class="price"><span class=${hit.priceLowered ? "now sale" : "now"}>${hit.priceFormatted || money(hit.price)}</span>${hit.priceLowered && hit.previousPrice ? html`<s class="was">${money(hit.previousPrice)}</s>` : ""}</p>
          </span>
        </a>`,
        empty: (r, { html }) => html`<p class="status">No products match “${r.query}”. Try another word or clear the filters.</p>`,
      },
    }),
    widgets.pagination({ container: "#pagination", padding: 2, scrollTo: "#main" }),
  ]);

  function hue(pn) {
    let h = 0;
    for (const c of String(pn)) h = (h * 31 + c.charCodeAt(0)) >>> 0;
    return h % 8;
  }
  function initials(p) {
    return (p.brand || p.title || "?").split(/\s+/).slice(0, 2).map((w) => w[0] || "").join("");
  }
  function category(p) {
    const h = p.hierarchies && p.hierarchies[0];
    return h && h.length ? h[h.length - 1] : "";
  }

  // The sort select's visible label (sortBy renders a bare select).
  search.on("render", () => {
    const sel = document.querySelector("#sort-by select");
    if (sel && !sel.id) sel.id = "sort-select";
  });
  // A failed search is shown, not thrown (InstantSearch throws it
  // when no listener takes it).
  search.on("error", ({ error }) => {
    document.getElementById("stats").textContent = "The shop could not answer: " + ((error && error.message) || error);
  });
  search.start();

  const toggle = document.getElementById("filters-toggle");
  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    document.getElementById("facets").classList.toggle("open", open);
  });
})();
