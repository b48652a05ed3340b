// A shop's page written against aisle.d.ts: checked by TestTypeScript
// with tsc --noEmit --strict. It is never run.
/// <reference path="../aisle.d.ts" />

window.aisleq = window.aisleq || [];
if (Array.isArray(window.aisleq)) {
  window.aisleq.push(["search.search", "shop", "drill", { format: "JSON" }]);
}

Aisle.init({ websiteUuid: "00000000-0000-4000-8000-00000000a001", baseUrl: "https://search.shop.example" });

async function searchPage(phrase: string): Promise<string[]> {
  const answer = await Aisle.search.search("shop", phrase, {
    format: "JSON",
    filters: ["brand:Bosch", "price:10,100"],
    sorting: ["price asc"],
    return_filters: true,
    exclude_sibling_filters: ["brand"],
    product_fields: "title,price,productNumber",
    engine_options: { product: { start: 0, current_count: 20 }, category: { current_count: 3 } },
    device_type: "MOBILE",
    callback: (data) => {
      if ("error" in data) console.warn(data.error.code, data.error.status);
      else console.log(data.product_results, data.didTrackSearch);
    },
  });
  const facets = (answer.filters || []).map((f: Aisle.Filter) => f.settings.title + ": " + (f.values || []).length);
  const titles = answer.results.map((p: Aisle.Product) => (p.title || "") + " " + (p.price ?? ""));
  const categories: string[] = answer.categories.map((c) => c.title || "");
  return facets.concat(titles, categories);
}

async function htmlSearch(phrase: string): Promise<string> {
  const answer: Aisle.HTMLAnswer = await Aisle.search.search("shop", phrase);
  return answer.result + answer.product_results;
}

async function categoryPage(): Promise<number> {
  const page = await Aisle.pages.load("garden", {
    url: location.href,
    firstLoad: true,
    format: "JSON",
    params: { filters: { brand: "Gardena" } },
    products: { start: 0, count: 12, fields: ["title"], sorting: ["price desc"] },
  });
  return page.products.total;
}

async function boxes(productNumber: string): Promise<number> {
  const r = await Aisle.recoms.load([
    { key: "alternatives", context: { productNumbers: [productNumber] } },
    { trackingKey: "top", count: 4, sources: [{ type: "TOP", limit: 4 }], fields: ["title"] },
  ]);
  return r.responses.filter((x) => x.success).length;
}

function track(productNumber: string): void {
  const id: string = Aisle.user.trackingId();
  Aisle.track.view(productNumber).catch((e: Aisle.Failure) => console.warn(e.message, id));
  Aisle.track.view({ url: location.href });
  Aisle.track.click(productNumber, { source: "search", key: "shop", position: 1 });
  Aisle.track.cart([productNumber]);
  Aisle.track.purchase({ orderNumber: "O-1", lines: [{ productNumber, quantity: 2, price: 9.5 }], total: 19 });
}

async function instantSearch(): Promise<number> {
  const client = Aisle.instantsearch.searchClient({ key: "shop", indexes: { by_price: { sorting: ["price asc"] } } });
  const { results } = await client.search([{ indexName: "shop", params: { query: "drill", facets: ["brand"] } }]);
  const first = results[0];
  return "hits" in first ? first.nbHits : first.facetHits.length;
}

void searchPage("drill");
void htmlSearch("drill");
void categoryPage();
void boxes("A100");
track("A100");
void instantSearch();
