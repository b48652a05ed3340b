// TypeScript declarations of Aisle's browser SDK (GET /sdk.js), the
// global `Aisle`. docs/sdk.md is the reference.

declare namespace Aisle {
  /** What a failed call gives: the Promise rejects with it, the callback gets {error}. */
  interface Failure {
    /** HTTP status; 0 when no answer came (network down, timeout, a bad call). */
    status: number;
    /** The server's error code (INVALID_REQUEST, NOT_FOUND, ...) or NETWORK, TIMEOUT, BAD_RESPONSE, NO_WEBSITE, INVALID_CALL, NOT_MAPPED. */
    code: string;
    message: string;
    /** The request member at fault, when the server names one. */
    field?: string;
  }
  type Callback<T> = (data: T | { error: Failure }) => void;

  interface InitOptions {
    /** The website; default the script tag's data-website. */
    websiteUuid?: string;
    /** The API's origin; default the origin /sdk.js came from. */
    baseUrl?: string;
    /** Milliseconds before a request fails with TIMEOUT; default 15000. */
    timeout?: number;
    /** The visitor's id, when the shop keeps its own; default the SDK's (user.trackingId). */
    trackingUserId?: string;
  }

  interface EngineOption {
    /** Offset; default 0. */
    start?: number;
    /** Count; default 10 for products, 0 for the others (not searched). */
    current_count?: number;
  }

  interface SearchOptions<F extends "HTML" | "JSON" = "HTML" | "JSON"> {
    /** Default "HTML". */
    format?: F;
    /** Filter strings: "brand:Bosch", "price:10,100", "hierarchies:Garden$Tools$". */
    filters?: string[];
    /** Sorting strings: "price asc". */
    sorting?: string[];
    /** Return the filters (facets); default false. */
    return_filters?: boolean;
    /** Values kept per returned filter (selected ones always); default 100. */
    max_filter_values?: number;
    /** Fields whose values count within the result set (with return_filters). */
    exclude_sibling_filters?: string[];
    /** Comma-separated product fields (JSON only); default all. */
    product_fields?: string;
    engine_options?: {
      product?: EngineOption;
      category?: EngineOption;
      site_page?: EngineOption;
      blog_post?: EngineOption;
      brand?: EngineOption;
    };
    /** "DESKTOP" or "MOBILE". */
    device_type?: "DESKTOP" | "MOBILE";
    /** false: do not track this search; default true (a new search of another phrase than the last tracked is tracked). */
    track?: boolean;
    callback?: Callback<F extends "JSON" ? JSONAnswer : HTMLAnswer>;
  }

  interface Product {
    productNumber?: string;
    title?: string;
    url?: string;
    imgUrl?: string;
    currency?: string;
    price?: number;
    previousPrice?: number;
    priceLowered?: boolean;
    priceFormatted?: string;
    description?: string;
    keywords?: string;
    inStock?: boolean;
    brand?: string;
    variantProductNumbers?: string[];
    hierarchies?: string[][];
    score?: number;
    suggestedResult?: boolean;
    sponsored?: boolean;
    extraData?: Record<string, string>;
    extraDataList?: Record<string, string[]>;
    extraDataNumber?: Record<string, number>;
    [field: string]: unknown;
  }

  interface ContentItem {
    title?: string;
    description?: string;
    url?: string;
    keywords?: string;
    hierarchy?: string[];
    imgUrl?: string;
    extraData?: Record<string, string>;
    [field: string]: unknown;
  }

  interface Redirect {
    title?: string;
    url: string;
    trackingCode?: string;
    originalUrl?: string;
  }

  interface FilterValue {
    title: string;
    count: number;
    /** The filter string to send back in filters. */
    query: string;
    selected: boolean;
  }

  interface Filter {
    name: string;
    settings: { name: string; type: "LIST" | "BOOLEAN" | "RANGE"; title: string; filteringText?: string; negatedFilteringText?: string };
    values?: FilterValue[];
    min?: string;
    max?: string;
    selectedMin?: string;
    selectedMax?: string;
  }

  interface Sorting {
    name: string;
    settings: { name: string; title: string; ascendingText?: string; descendingText?: string };
    ascending: { query: string; selected: boolean };
    descending: { query: string; selected: boolean };
  }

  interface Answer {
    /** Every product matching. */
    product_results: number;
    product_start: number;
    /** Whether this call tracked the search (a new search of a phrase). */
    didTrackSearch: boolean;
    /** With return_filters. */
    filters?: Filter[];
    sorting?: Sorting[];
  }

  interface HTMLAnswer extends Answer {
    /** The rendered results. */
    result: string;
  }

  interface JSONAnswer extends Answer {
    results: Product[];
    categories: ContentItem[];
    brands: ContentItem[];
    site_pages: ContentItem[];
    blog_posts: ContentItem[];
    redirects: Redirect[];
    suggestedProductStatus?: "NO_SUGGESTED" | "MIXED" | "ONLY_SUGGESTED";
  }

  interface PageOptions {
    /** Default location.href. */
    url?: string;
    /** Default true. */
    firstLoad?: boolean;
    format?: "HTML" | "JSON" | "html" | "json";
    params?: { filters?: Record<string, unknown>; [member: string]: unknown };
    products?: { start?: number; count?: number; fields?: string[]; filters?: string[]; sorting?: string[] };
    device_type?: "DESKTOP" | "MOBILE";
    callback?: Callback<PageAnswer>;
  }

  interface PageAnswer {
    success: boolean;
    firstLoad: boolean;
    products: {
      start: number;
      count: number;
      total: number;
      result?: Product[];
      html?: string;
      javascript?: string;
      style?: string;
      filters?: Filter[];
      sorting?: Sorting[];
    };
  }

  interface RecomRequest {
    key?: string;
    trackingKey?: string;
    format?: "html" | "json";
    fields?: string[];
    count?: number;
    hideAdditionalVariants?: boolean;
    context?: { productNumbers?: string[]; urls?: string[]; hierarchies?: string[][]; brand?: string; [member: string]: unknown };
    sources?: { type: string; limit?: number; filters?: Record<string, unknown> }[];
    deviceType?: "DESKTOP" | "MOBILE";
  }

  interface RecomResponse {
    key?: string;
    trackingKey?: string;
    success: boolean;
    products?: Product[];
    html?: string;
    code?: string;
    message?: string;
  }

  interface RecomsAnswer {
    success: boolean;
    responses: RecomResponse[];
  }

  interface Collected {
    success: boolean;
    seq?: number;
    trackingUserId?: string;
  }

  interface Shown {
    source: "search" | "page" | "recoms";
    key?: string;
    /** From 1. */
    position?: number;
    retailMediaCampaignId?: string;
  }

  interface OrderLine {
    productNumber: string;
    quantity?: number;
    price?: number;
  }

  interface Order {
    orderNumber: string;
    lines?: OrderLine[];
    productNumbers?: string[];
    total?: number;
    email?: string;
    customerId?: string;
  }

  namespace instantsearch {
    interface ClientOptions {
      /** The search configuration key, for index names that name none. */
      key?: string;
      /** Joins a hierarchical menu's levels; default " > ". */
      hierarchySeparator?: string;
      /** Index names mapped to a key and sorting strings (replicas). */
      indexes?: Record<string, { key?: string; sorting?: string[] }>;
      /** Filter strings added to every search. */
      filters?: string[];
      /** Track searches with hits (default false: as-you-type searches are not tracked). */
      trackSearches?: boolean;
      deviceType?: "DESKTOP" | "MOBILE";
    }
    interface Request {
      indexName: string;
      params?: Record<string, unknown> | string;
      type?: "default" | "facet";
      facet?: string;
    }
    interface Hit extends Product {
      objectID: string;
      _highlightResult?: Record<string, { value: string; matchLevel: "none" | "partial" | "full"; matchedWords: string[] }>;
    }
    interface Result {
      hits: Hit[];
      nbHits: number;
      page: number;
      nbPages: number;
      hitsPerPage: number;
      processingTimeMS: number;
      facets: Record<string, Record<string, number>>;
      facets_stats: Record<string, { min: number; max: number; avg: number; sum: number }>;
      exhaustiveFacetsCount: boolean;
      exhaustiveNbHits: boolean;
      query: string;
      params: string;
      index: string;
    }
    interface FacetHits {
      facetHits: { value: string; highlighted: string; count: number }[];
      exhaustiveFacetsCount: boolean;
      processingTimeMS: number;
    }
    interface SearchClient {
      search(requests: Request[] | { requests: Request[] }): Promise<{ results: (Result | FacetHits)[] }>;
      searchForFacetValues(requests: Request[]): Promise<FacetHits[]>;
      clearCache(): Promise<void>;
      addAlgoliaAgent(agent: string): void;
    }
  }
}

interface AisleSDK {
  readonly version: string;
  init(options?: Aisle.InitOptions): AisleSDK;
  config(): { websiteUuid: string; baseUrl: string; timeout: number };
  search: {
    search(key: string, phrase: string, options: Aisle.SearchOptions<"JSON"> & { format: "JSON" }): Promise<Aisle.JSONAnswer>;
    search(key: string, phrase: string, options?: Aisle.SearchOptions<"HTML">): Promise<Aisle.HTMLAnswer>;
  };
  pages: {
    load(key: string, options?: Aisle.PageOptions): Promise<Aisle.PageAnswer>;
  };
  recoms: {
    load(requests: Aisle.RecomRequest[], options?: { callback?: Aisle.Callback<Aisle.RecomsAnswer> }): Promise<Aisle.RecomsAnswer>;
  };
  track: {
    view(product: string | { productNumber?: string; url?: string }, callback?: Aisle.Callback<Aisle.Collected>): Promise<Aisle.Collected>;
    /** Sent with navigator.sendBeacon: success says the browser took it. */
    click(productNumber: string, shown: Aisle.Shown, callback?: Aisle.Callback<{ success: boolean }>): Promise<{ success: boolean }>;
    cart(productNumbers: string[], callback?: Aisle.Callback<Aisle.Collected>): Promise<Aisle.Collected>;
    purchase(order: Aisle.Order, callback?: Aisle.Callback<Aisle.Collected>): Promise<Aisle.Collected>;
    /** A search the page settled on (as-you-type searches sent with track: false); sent with navigator.sendBeacon, unless the last search tracked was of the same phrase. */
    search(query: string, results: number, callback?: Aisle.Callback<{ success: boolean }>): Promise<{ success: boolean }>;
  };
  user: {
    /** The visitor's id: 32 hex characters, kept in the aisle_id cookie and localStorage. */
    trackingId(): string;
  };
  instantsearch: {
    searchClient(options?: Aisle.instantsearch.ClientOptions): Aisle.instantsearch.SearchClient;
  };
}

/** A queued call: a dotted method name and its arguments, or a function given Aisle. */
type AisleCommand = [string, ...unknown[]] | ((aisle: AisleSDK) => void);

interface Window {
  Aisle: AisleSDK;
  aisleq: AisleCommand[] | { push(...commands: AisleCommand[]): number };
}

declare var Aisle: AisleSDK;
declare var aisleq: Window["aisleq"];
