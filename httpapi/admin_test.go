package httpapi

import (
	"fmt"
	"io"
	"log/slog"
	neturl "net/url"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/internal/background"
	"github.com/aisle-search/aisle/live"
	"github.com/aisle-search/aisle/store"
)

// serveLive serves the hardware shop from a store on disk with the admin
// API on, until the test ends; it returns the base URL.
func serveLive(t *testing.T) string {
	t.Helper()
	return serveLiveOpts(t, Options{})
}

// serveLiveOpts is serveLive with the server's options (Live and Logger
// are set here).
func serveLiveOpts(t *testing.T, opt Options) string {
	t.Helper()
	url, _ := serveLiveStore(t, opt)
	return url
}

// serveLiveStore is serveLiveOpts with events collected too
// (Options.Collector), and the store it serves.
func serveLiveStore(t *testing.T, opt Options) (string, *store.Store) {
	t.Helper()
	return serveLiveSite(t, shopSite(config.SearchVersion{}), hardware(), opt)
}

// serveLiveSite is serveLiveStore for website w and its products.
func serveLiveSite(t *testing.T, w config.Website, products []catalog.Product, opt Options) (string, *store.Store) {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return serveLiveSiteOn(t, st, w, products, opt), st
}

// serveLiveSiteOn is serveLiveSite from st, which the test closes.
func serveLiveSiteOn(t *testing.T, st *store.Store, w config.Website, products []catalog.Product, opt Options) string {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	g, _, err := live.Import(st, &w, analysis.English, func(fn func(*catalog.Product) error) error {
		for i := range products {
			if err := fn(&products[i]); err != nil {
				return err
			}
		}
		return nil
	}, quiet, nil)
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.New("admin-key", g)
	opt.Live, opt.Logger = live.New(st, eng, analysis.English, quiet), quiet
	opt.Behaviours = engine.NewBehaviours()
	opt.Collector = live.NewCollector(st, eng, opt.Behaviours)
	t.Cleanup(opt.Live.Close) // before the store closes
	t.Cleanup(opt.Collector.Close)
	return listen(t, New(eng, opt))
}

// adminSend sends an admin request with the admin key and decodes the
// answer.
func adminSend(t *testing.T, method, url, contentType, body string, hdr ...string) (int, map[string]any) {
	t.Helper()
	if len(hdr) == 0 {
		hdr = []string{"Authorization", "Bearer admin-key"}
	}
	status, _, raw := send(t, method, url, contentType, body, hdr...)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s %s: %d %s", method, url, status, raw)
	}
	return status, out
}

// TestAdminProductsUpsertAndDelete: POST
// /admin/v1/websites/{uuid}/products upserts a batch of JSON Lines or a
// JSON array and answers how many products it added and updated; DELETE
// .../products/{productNumber} deletes one; each is searchable as soon
// as the answer arrives.
func TestAdminProductsUpsertAndDelete(t *testing.T) {
	url := serveLive(t)
	products := url + "/admin/v1/websites/" + shopUUID + "/products"

	status, r := adminSend(t, "POST", products, "application/x-ndjson",
		`{"productNumber":"P09","title":"Cordless hammer drill","price":99}`+"\n"+
			`{"productNumber":"P01","title":"Claw hammer deluxe","price":30}`+"\n")
	if status != 200 || r["added"] != 1.0 || r["updated"] != 1.0 || r["success"] != true {
		t.Fatalf("JSON Lines batch: %d %v", status, r)
	}
	if got := filtered(t, url, "price:30,99"); !slices.Equal(got, []string{"P01", "P02", "P03", "P08", "P09"}) {
		t.Errorf("price 30 to 99 right after the batch: %v", got)
	}
	status, r = adminSend(t, "POST", products, "application/json", `[{"productNumber":"P10","title":"Garden rake","price":12}]`)
	if status != 200 || r["added"] != 1.0 {
		t.Fatalf("JSON array batch: %d %v", status, r)
	}
	status, r = adminSend(t, "DELETE", products+"/p09", "", "")
	if status != 200 || r["deleted"] != 1.0 {
		t.Fatalf("delete P09 (as p09): %d %v", status, r)
	}
	if got := filtered(t, url, "price:90,100"); len(got) != 0 {
		t.Errorf("price 90 to 100 after the delete: %v", got)
	}

	// A bulk delete: one entry; numbers that match nothing are listed,
	// and a list of them only appends nothing.
	status, r = adminSend(t, "DELETE", products, "application/json", `{"productNumbers":["P10","nope","p02"]}`)
	if status != 200 || r["deleted"] != 2.0 || fmt.Sprint(r["notFound"]) != "[nope]" {
		t.Fatalf("bulk delete: %d %v", status, r)
	}
	seq := r["seq"]
	status, r = adminSend(t, "DELETE", products, "application/json", `{"productNumbers":["nope","P10"]}`)
	if status != 200 || r["deleted"] != 0.0 || r["seq"] != seq || fmt.Sprint(r["notFound"]) != "[nope P10]" {
		t.Fatalf("bulk delete of absent products: %d %v (seq before %v)", status, r, seq)
	}
	if got := filtered(t, url, "price:0,50"); slices.Contains(got, "P02") || slices.Contains(got, "P10") {
		t.Errorf("after the bulk delete the shop lists %v", got)
	}
}

// skuMapping is a CSV mapping of columns sku, name and cost, as the
// ?mapping= query value.
var skuMapping = neturl.QueryEscape(`{"name":"sku","columns":{"productNumber":"sku","title":"name","price":"cost"}}`)

// priceMapping is a price feed's: a partial update of two columns.
var priceMapping = neturl.QueryEscape(`{"columns":{"productNumber":"sku","price":"cost"}}`)

// TestAdminCSVAndLargeBodies: a CSV body with a mapping (given inline or
// by a built-in name) is read with the import's reader and upserted in
// one entry; a write body is streamed up to MaxWriteBytes, far past the
// search's 1 MiB, and a longer one is a 413 that changes nothing.
func TestAdminCSVAndLargeBodies(t *testing.T) {
	url := serveLiveOpts(t, Options{MaxWriteBytes: 4 << 20})
	products := url + "/admin/v1/websites/" + shopUUID + "/products"
	status, r := adminSend(t, "POST", products+"?mapping="+skuMapping, "text/csv", "sku,name,cost\nC1,Copper kettle,30\nC2,Copper pan,45\n")
	if status != 200 || r["added"] != 2.0 {
		t.Fatalf("CSV upsert: %d %v", status, r)
	}
	if got := resultNumbers(t, searchOK(t, url, q("copper", `"count":5,"fields":["productNumber"]`)), "results"); !slices.Equal(got, []string{"C1", "C2"}) && !slices.Equal(got, []string{"C2", "C1"}) {
		t.Errorf("copper finds %v after the CSV upsert", got)
	}
	// 3 MiB of JSON Lines: 3 times the search limit, within MaxWriteBytes.
	var big strings.Builder
	pad := strings.Repeat("x", 1000)
	for i := 0; big.Len() < 3<<20; i++ {
		fmt.Fprintf(&big, `{"productNumber":"L%05d","title":"Long kite %d","price":1,"description":"%s"}`+"\n", i, i, pad)
	}
	status, r = adminSend(t, "POST", products, "application/x-ndjson", big.String())
	if status != 200 || r["added"].(float64) < 2900 {
		t.Fatalf("a 3 MiB batch: %d %v", status, r)
	}
	before := searchOK(t, url, q("*", `"count":0`))
	status, r = adminSend(t, "POST", products, "application/x-ndjson", big.String()+big.String())
	if e, _ := r["error"].(map[string]any); status != 413 || e["code"] != "BODY_TOO_LARGE" {
		t.Errorf("a 6 MiB batch: %d %v, want 413", status, r)
	}
	if after := searchOK(t, url, q("*", `"count":0`)); after.get("products", "totalCount") != before.get("products", "totalCount") {
		t.Errorf("the refused batch changed the catalog: %v products, then %v", before.get("products", "totalCount"), after.get("products", "totalCount"))
	}
}

// TestAdminErrors: every admin failure is a JSON error, and a batch with
// a bad row changes nothing.
func TestAdminErrors(t *testing.T) {
	url := serveLive(t)
	products := url + "/admin/v1/websites/" + shopUUID + "/products"
	if status, r := adminSend(t, "POST", products, "application/json", `[{"productNumber":"P11","title":"Tape measure","variantProductNumbers":["P11-M"]}]`); status != 200 {
		t.Fatalf("adding P11: %d %v", status, r)
	}
	for _, tc := range []struct {
		name, method, url, contentType, body string
		hdr                                  []string
		status                               int
		code, says                           string
	}{
		{"no key", "POST", products, "application/json", `[]`, []string{"X-None", "x"}, 401, "UNAUTHORIZED", "needs an API key of the admin scope"},
		{"an unknown key", "POST", products, "application/json", `[]`, []string{"Authorization", "Bearer shop-key"}, 401, "UNAUTHORIZED", "not valid"},
		{"unknown website", "POST", url + "/admin/v1/websites/nope/products", "application/json", `[]`, nil, 404, "NOT_FOUND", `no website "nope"`},
		{"unknown collection", "POST", url + "/admin/v1/websites/" + shopUUID + "/pages", "application/json", `[]`, nil, 404, "NOT_FOUND", "no endpoint"},
		{"wrong method", "GET", products, "", "", nil, 405, "METHOD_NOT_ALLOWED", "use POST"},
		{"xml", "POST", products, "application/xml", "<p/>", nil, 415, "UNSUPPORTED_MEDIA_TYPE", "text/csv (with ?mapping=)"},
		{"csv content", "POST", url + "/admin/v1/websites/" + shopUUID + "/content", "text/csv", "a,b\n", nil, 415, "UNSUPPORTED_MEDIA_TYPE", "application/x-ndjson"},
		{"csv without a mapping", "POST", products, "text/csv", "a,b\n", nil, 400, "INVALID_REQUEST", "needs ?mapping="},
		{"an unknown mapping", "POST", products + "?mapping=nope", "text/csv", "a,b\n", nil, 400, "INVALID_REQUEST", `no built-in mapping "nope"`},
		{"a malformed mapping", "POST", products + "?mapping=%7B%22columns%22%3A", "text/csv", "a,b\n", nil, 400, "INVALID_REQUEST", "mapping: "},
		{"a csv row without a title", "POST", products + "?mapping=" + skuMapping, "text/csv", "sku,name,cost\nP30,Lamp,5\nP31,,6\n", nil, 400, "INVALID_REQUEST", `field "title"`},
		{"a csv partial update, a cell not a number", "POST", products + "?partial=true&mapping=" + priceMapping, "text/csv", "sku,cost\nP01,5\nP02,cheap\n", nil, 400, "INVALID_REQUEST", `body:3: record 2: column "cost", field "price"`},
		{"a partial mapping without productNumber", "POST", products + "?partial=true&mapping=" + neturl.QueryEscape(`{"columns":{"price":"cost"}}`), "text/csv", "cost\n5\n", nil, 400, "INVALID_REQUEST", "must map productNumber"},
		{"a whole-product mapping without title", "POST", products + "?mapping=" + priceMapping, "text/csv", "sku,cost\nP01,5\n", nil, 400, "INVALID_REQUEST", "must map productNumber and title"},
		{"empty batch", "POST", products, "application/json", `[]`, nil, 400, "INVALID_REQUEST", "holds no products"},
		{"bad row", "POST", products, "application/x-ndjson",
			`{"productNumber":"P20","title":"ok"}` + "\n" + `{"productNumber":"P21","title":"bad","price":"cheap"}` + "\n", nil, 400, "INVALID_REQUEST", `body:2: field "price"`},
		{"invalid product", "POST", products, "application/json", `[{"productNumber":"P22","title":"ok"},{"productNumber":"P23"}]`, nil, 400, "INVALID_REQUEST", `product 2 (P23): field "title"`},
		{"a title over 4 KiB", "POST", products, "application/json", `[{"productNumber":"P24","title":"` + strings.Repeat("t", catalog.MaxTitleBytes+1) + `"}]`, nil, 400, "INVALID_REQUEST", `product 1 (P24): field "title": is 4097 bytes long`},
		{"a price past 1e13", "POST", products, "application/x-ndjson", `{"productNumber":"P25","title":"ok","price":1.7e308}` + "\n", nil, 400, "INVALID_REQUEST", `product 1 (P25): field "price": must be a number from 0 to 1e+13`},
		{"a partial update past 1e13", "POST", products + "?partial=true", "application/json", `[{"productNumber":"P01","previousPrice":2e13}]`, nil, 400, "INVALID_REQUEST", `field "previousPrice"`},
		{"bulk delete of nothing", "DELETE", products, "application/json", `{"productNumbers":[]}`, nil, 400, "INVALID_REQUEST", "at least one"},
		{"bulk delete, misspelt member", "DELETE", products, "application/json", `{"productNumber":["P01"]}`, nil, 400, "INVALID_REQUEST", "productNumber"},
		{"unknown product", "DELETE", products + "/P99", "", "", nil, 404, "NOT_FOUND", `no product "P99"`},
		{"a variant's number", "DELETE", products + "/P11-M", "", "", nil, 404, "NOT_FOUND", `no product "P11-M"`},
	} {
		status, r := adminSend(t, tc.method, tc.url, tc.contentType, tc.body, tc.hdr...)
		e, _ := r["error"].(map[string]any)
		if status != tc.status || e["code"] != tc.code || !strings.Contains(e["message"].(string), tc.says) {
			t.Errorf("%s: %d %v, want %d %s saying %q", tc.name, status, r, tc.status, tc.code, tc.says)
		}
	}
	if got := resultNumbers(t, searchOK(t, url, q("*", `"count":20,"fields":["productNumber"]`)), "results"); len(got) != 9 || slices.Contains(got, "P20") {
		t.Errorf("after the refused requests the shop lists %v, want the 9 products it had", got)
	}
}

// TestAdminPartialUpdate: with ?partial=true a batch changes only the
// members it gives (a price and stock feed), in JSON Lines or an array;
// a row naming no product, or making an invalid one, applies nothing.
func TestAdminPartialUpdate(t *testing.T) {
	url := serveLive(t)
	products := url + "/admin/v1/websites/" + shopUUID + "/products?partial=true"
	status, r := adminSend(t, "POST", products, "application/x-ndjson",
		`{"productNumber":"P01","price":31,"inStock":false}`+"\n\n"+`{"productNumber":"p03","price":12.5}`+"\n")
	if status != 200 || r["updated"] != 2.0 || r["added"] != 0.0 {
		t.Fatalf("partial JSON Lines: %d %v", status, r)
	}
	if got := filtered(t, url, "price:31"); !slices.Equal(got, []string{"P01"}) {
		t.Errorf("price:31 finds %v", got)
	}
	// P01 kept its title and brand; it is out of stock now.
	if got := filtered(t, url, "brand:Müller"); !slices.Contains(got, "P01") {
		t.Errorf("brand:Müller lost P01: %v", got)
	}
	if got := filtered(t, url, "inStock:false"); !slices.Contains(got, "P01") {
		t.Errorf("inStock:false misses P01: %v", got)
	}
	if got := resultNumbers(t, searchOK(t, url, q("claw hammer", `"count":5,"fields":["productNumber"]`)), "results"); len(got) == 0 || got[0] != "P01" {
		t.Errorf("claw hammer finds %v, want P01 first: its title was kept", got)
	}
	status, r = adminSend(t, "POST", products, "application/json", `[{"productNumber":"P03","inStock":true}]`)
	if status != 200 || r["updated"] != 1.0 {
		t.Fatalf("partial JSON array: %d %v", status, r)
	}

	for _, tc := range []struct{ name, contentType, body, says string }{
		{"unknown product", "application/x-ndjson", `{"productNumber":"P01","price":1}` + "\n" + `{"productNumber":"P77","price":2}`, `body:2: no product "P77" to update`},
		{"no product number", "application/json", `[{"price":3}]`, "body: product 1: a partial update is a JSON object naming its product by productNumber"},
		{"wrong type", "application/x-ndjson", `{"productNumber":"P01","price":"cheap"}`, `body:1: field "price": expected number`},
		{"invalid result", "application/x-ndjson", `{"productNumber":"P01","price":1}` + "\n" + `{"productNumber":"P02","title":" "}`, `body:2: field "title"`},
		{"not an array", "application/json", `{"productNumber":"P01"}`, "a JSON array of objects"},
	} {
		status, r := adminSend(t, "POST", products, tc.contentType, tc.body)
		e, _ := r["error"].(map[string]any)
		if msg, _ := e["message"].(string); status != 400 || !strings.Contains(msg, tc.says) {
			t.Errorf("%s: %d %v, want 400 saying %q", tc.name, status, r, tc.says)
		}
	}
	if got := filtered(t, url, "price:1"); len(got) != 0 {
		t.Errorf("a refused partial batch applied its first row: price:1 finds %v", got)
	}
}

// TestAdminAllowErrors: with ?allowErrors=true the valid rows are applied
// and the others counted and named by row, plain or partial; a batch of
// bad rows only applies nothing and still answers 200.
func TestAdminAllowErrors(t *testing.T) {
	url := serveLive(t)
	products := url + "/admin/v1/websites/" + shopUUID + "/products"
	status, r := adminSend(t, "POST", products+"?allowErrors=true", "application/x-ndjson", strings.Join([]string{
		`{"productNumber":"P30","title":"Spade","price":20}`,
		`{"productNumber":"P31","title":"Rake","price":"cheap"}`,
		`{"productNumber":"P32","price":5}`,
		`{"productNumber":"P33","title":"Hoe","prise":5}`,
		`{"productNumber":"P01","title":"Claw hammer","price":26}`,
	}, "\n"))
	if status != 200 || r["added"] != 1.0 || r["updated"] != 1.0 || r["rejected"] != 3.0 {
		t.Fatalf("allowErrors: %d %v", status, r)
	}
	var rows []string
	for _, e := range r["errors"].([]any) {
		e := e.(map[string]any)
		rows = append(rows, e["row"].(string)+" "+e["message"].(string))
	}
	want := []string{`body:2 field "price": expected number`, `body:3 field "title"`, `body:4 unknown field "prise" (did you mean "price"?)`}
	if len(rows) != len(want) {
		t.Fatalf("errors %q", rows)
	}
	for i := range want {
		if !strings.HasPrefix(rows[i], want[i]) {
			t.Errorf("error %d: %q, want it to start %q", i, rows[i], want[i])
		}
	}
	if got := filtered(t, url, "price:20"); !slices.Equal(got, []string{"P30"}) {
		t.Errorf("price:20 after the batch: %v", got)
	}
	if got := filtered(t, url, "price:26"); !slices.Equal(got, []string{"P01"}) {
		t.Errorf("price:26 after the batch: %v", got)
	}

	status, r = adminSend(t, "POST", products+"?partial=true&allowErrors=true", "application/json",
		`[{"productNumber":"P30","price":21},{"productNumber":"P99","price":1}]`)
	if errs := fmt.Sprint(r["errors"]); status != 200 || r["updated"] != 1.0 || r["rejected"] != 1.0 || !strings.Contains(errs, `no product "P99"`) || !strings.Contains(errs, "row:body: product 2") {
		t.Fatalf("partial with allowErrors: %d %v", status, r)
	}
	seq := r["seq"]
	status, r = adminSend(t, "POST", products+"?allowErrors=true", "application/x-ndjson", `{"productNumber":"P40"}`)
	if status != 200 || r["rejected"] != 1.0 || r["added"] != 0.0 || r["seq"] != seq {
		t.Fatalf("allowErrors with only bad rows: %d %v (seq before %v)", status, r, seq)
	}
}

// TestAdminCSVPartialAndAllowErrors: a CSV body takes ?partial=true (its
// mapping need name only productNumber, and a row changes only the
// members its cells set) and ?allowErrors=true (a row whose cell does not
// convert, or whose product is refused, is left out and listed by line).
func TestAdminCSVPartialAndAllowErrors(t *testing.T) {
	url := serveLive(t)
	products := url + "/admin/v1/websites/" + shopUUID + "/products"
	first := func() map[string]any {
		t.Helper()
		rs := searchOK(t, url, q("P01", `"count":1,"fields":["productNumber","title","price"]`)).results("products")
		if len(rs) == 0 {
			t.Fatal("P01 not found")
		}
		return rs[0]
	}
	title := first()["title"]
	status, r := adminSend(t, "POST", products+"?partial=true&mapping="+priceMapping, "text/csv", "sku,cost\nP01,77\nP02,78\n")
	if status != 200 || r["updated"] != 2.0 {
		t.Fatalf("a csv price feed: %d %v", status, r)
	}
	if p := first(); p["price"] != 77.0 || p["title"] != title {
		t.Errorf("P01 after the price feed: %v, want price 77 and its title %v kept", p, title)
	}
	if got := filtered(t, url, "price:78"); !slices.Equal(got, []string{"P02"}) {
		t.Errorf("price:78 after the price feed: %v", got)
	}

	status, r = adminSend(t, "POST", products+"?partial=true&allowErrors=true&mapping="+priceMapping, "text/csv", "sku,cost\nP01,cheap\nP99,5\nP02,79\n")
	if errs := fmt.Sprint(r["errors"]); status != 200 || r["updated"] != 1.0 || r["rejected"] != 2.0 ||
		!strings.Contains(errs, `message:record 1: column "cost", field "price": "cheap" is not a number row:body:2`) || !strings.Contains(errs, `no product "P99" to update row:body:3`) {
		t.Fatalf("a csv price feed with allowErrors: %d %v", status, r)
	}
	if got := filtered(t, url, "price:79"); !slices.Equal(got, []string{"P02"}) {
		t.Errorf("price:79 after the feed with errors: %v", got)
	}

	status, r = adminSend(t, "POST", products+"?allowErrors=true&mapping="+skuMapping, "text/csv", "sku,name,cost\nP50,Trowel,9\nP51,Fork,lots\nP52,,3\n")
	if errs := fmt.Sprint(r["errors"]); status != 200 || r["added"] != 1.0 || r["rejected"] != 2.0 ||
		!strings.Contains(errs, `message:record 2: column "cost", field "price": "lots" is not a number row:body:3`) || !strings.Contains(errs, `"title"`) || !strings.Contains(errs, `row:body:4`) {
		t.Fatalf("a csv batch with allowErrors: %d %v", status, r)
	}
	if got := filtered(t, url, "price:9"); !slices.Equal(got, []string{"P50"}) {
		t.Errorf("price:9 after the batch: %v", got)
	}
	seq := r["seq"]
	status, r = adminSend(t, "POST", products+"?allowErrors=true&mapping="+skuMapping, "text/csv", "sku,name,cost\nP60,Saw,none\n")
	if status != 200 || r["rejected"] != 1.0 || r["added"] != 0.0 || r["seq"] != seq {
		t.Fatalf("a csv batch of bad rows only: %d %v (seq before %v)", status, r, seq)
	}
}

// TestAdminContent: content items are upserted by kind and id and
// deleted one at a time; they are searchable on the answer, product
// searches are unaffected, and bad items are refused as product rows are.
func TestAdminContent(t *testing.T) {
	url := serveLive(t)
	content := url + "/admin/v1/websites/" + shopUUID + "/content"
	status, r := adminSend(t, "POST", content, "application/x-ndjson",
		`{"kind":"brands","id":"b-bosch","title":"Bosch"}`+"\n"+`{"kind":"blogPosts","id":"p1","title":"Choosing a hammer","hierarchy":["Tools"]}`)
	if status != 200 || r["added"] != 2.0 {
		t.Fatalf("two items: %d %v", status, r)
	}
	brands := func() float64 {
		t.Helper()
		r := searchOK(t, url, `{"query":"bosch","key":"shop","brands":{"count":5}}`)
		n, _ := r.get("brands", "totalCount").(float64)
		return n
	}
	if n := brands(); n != 1 {
		t.Errorf("bosch finds %v brands after the upsert", n)
	}
	status, r = adminSend(t, "POST", content+"?allowErrors=true", "application/json",
		`[{"kind":"brands","id":"b-bosch","title":"Bosch GmbH"},{"kind":"brand","id":"x","title":"X"}]`)
	if status != 200 || r["updated"] != 1.0 || r["rejected"] != 1.0 || !strings.Contains(fmt.Sprint(r["errors"]), `field "kind"`) {
		t.Fatalf("allowErrors: %d %v", status, r)
	}
	status, r = adminSend(t, "DELETE", content+"/brands/b-bosch", "", "")
	if status != 200 || r["deleted"] != 1.0 {
		t.Fatalf("delete: %d %v", status, r)
	}
	if n := brands(); n != 0 {
		t.Errorf("bosch finds %v brands after the delete", n)
	}
	if got := filtered(t, url, "brand:Acme"); len(got) == 0 {
		t.Error("the products went missing after content writes")
	}
	for _, tc := range []struct {
		name, method, url, contentType, body string
		status                               int
		says                                 string
	}{
		{"bad item", "POST", content, "application/x-ndjson", `{"kind":"brands","id":"b2","title":"B"}` + "\n" + `{"kind":"brands","title":"C"}`, 400, `body:2: field "id": is required; nothing was applied`},
		{"partial", "POST", content + "?partial=true", "application/json", `[]`, 400, "partial updates take products only"},
		{"unknown item", "DELETE", content + "/brands/nope", "", "", 404, `no brands item "nope"`},
		{"no id", "DELETE", content + "/brands", "", "", 404, "content/{kind}/{id}"},
		{"wrong method", "GET", content, "", "", 405, "use POST"},
	} {
		status, r := adminSend(t, tc.method, tc.url, tc.contentType, tc.body)
		e, _ := r["error"].(map[string]any)
		if msg, _ := e["message"].(string); status != tc.status || !strings.Contains(msg, tc.says) {
			t.Errorf("%s: %d %v, want %d saying %q", tc.name, status, r, tc.status, tc.says)
		}
	}
}

// TestAdminPutConfig: PUT /admin/v1/config replaces the configuration,
// served at once; a file that does not parse, validate or compile
// changes nothing and says why.
func TestAdminPutConfig(t *testing.T) {
	url := serveLive(t)
	cfg := url + "/admin/v1/config"
	w := shopSite(config.SearchVersion{Synonyms: []config.Synonym{{Terms: []string{"mallet", "hammer"}}}})
	w.Search[0].Key = "shop2"
	body, err := json.Marshal(config.File{Websites: []config.Website{w}})
	if err != nil {
		t.Fatal(err)
	}
	status, r := adminSend(t, "PUT", cfg, "application/json", string(body))
	if status != 200 || r["success"] != true {
		t.Fatalf("PUT config: %d %v", status, r)
	}
	if got := resultNumbers(t, searchOK(t, url, `{"query":"mallet","key":"shop2","products":{"count":10,"fields":["productNumber"]}}`), "results"); len(got) == 0 {
		t.Error("the new key's synonym mallet → hammer finds nothing")
	}
	if r := post(t, url, "application/json", q("*", `"count":1`)); r.status != 404 {
		t.Errorf("the old key shop still answers %d", r.status)
	}

	bad := strings.Replace(string(body), `"key":"shop2"`, `"key":"shop3","bogus":1`, 1)
	tmpl := strings.Replace(string(body), `"key":"shop2"`, `"key":"shop4"`, 1)
	tmpl = strings.Replace(tmpl, `"versions":[{`, `"versions":[{"template":"{{.Query",`, 1)
	for _, tc := range []struct{ name, body, says string }{
		{"not JSON", `{"websites":[`, "config: decode"},
		{"unknown member", bad, `unknown field "bogus"`},
		{"no website", `{"websites":[]}`, "at least one website"},
		{"template that does not compile", tmpl, "template"},
	} {
		status, r := adminSend(t, "PUT", cfg, "application/json", tc.body)
		e, _ := r["error"].(map[string]any)
		if msg, _ := e["message"].(string); status != 400 || !strings.Contains(msg, tc.says) || !strings.Contains(msg, "nothing changed") {
			t.Errorf("%s: %d %v, want 400 saying %q and nothing changed", tc.name, status, r, tc.says)
		}
	}
	if got := resultNumbers(t, searchOK(t, url, `{"query":"*","key":"shop2","products":{"count":20,"fields":["productNumber"]}}`), "results"); len(got) != 8 {
		t.Errorf("after the refused files key shop2 lists %v", got)
	}
	if status, r := adminSend(t, "POST", cfg, "application/json", string(body)); status != 405 {
		t.Errorf("POST config: %d %v", status, r)
	}
}

// TestAdminRunsInTheBackground: an admin request is served on a
// background thread (package background), so its parsing and merging
// take the cores only when the searches leave them idle; a search is
// not.
func TestAdminRunsInTheBackground(t *testing.T) {
	url := serveLive(t)
	before := background.Started()
	if status, r := adminSend(t, "POST", url+"/admin/v1/websites/nope/products", "application/json", `[]`); status != 404 {
		t.Fatalf("a write to an unknown website: %d %v", status, r)
	}
	if n := background.Started() - before; n != 1 {
		t.Errorf("an admin request started %d background threads, want 1", n)
	}
	before = background.Started()
	searchOK(t, url, q("*", `"count":2`))
	if n := background.Started() - before; n != 0 {
		t.Errorf("a search started %d background threads, want none", n)
	}
}
