package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/datasets"
	"github.com/aisle-search/aisle/internal/expect"
	"github.com/aisle-search/aisle/internal/golden"
	"github.com/aisle-search/aisle/store"
)

// storedProducts reads every product a data directory holds.
func storedProducts(t *testing.T, dir string) []*catalog.Product {
	t.Helper()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg, err := st.Config()
	if err != nil || cfg == nil {
		t.Fatalf("stored configuration %v, %v", cfg, err)
	}
	var ps []*catalog.Product
	for _, w := range cfg.Websites {
		// Products reuses its Product: keep copies.
		if err := st.Products(w.UUID, func(p *catalog.Product) error { c := *p; ps = append(ps, &c); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	return ps
}

// TestImportFeedFormats: README.md, "aisle import --data ./shop
// products.jsonl # JSONL / NDJSON, or a JSON array"; docs/configuration.md,
// "JSONL / NDJSON (one object per line) or a JSON array".
func TestImportFeedFormats(t *testing.T) {
	const (
		a = `{"productNumber":"F1","title":"First Lamp","price":10}`
		b = `{"productNumber":"F2","title":"Middle Lamp","price":20}`
		c = `{"productNumber":"F3","title":"Last Lamp","price":30}`
	)
	tests := []struct{ name, content string }{
		{"products.jsonl", a + "\n" + b + "\n" + c + "\n"},
		{"products.ndjson", a + "\r\n\r\n" + b + "\r\n" + c}, // CRLF, a blank line, no final newline
		{"products.json", "[\n  " + a + ",\n  " + b + ",\n  " + c + "\n]\n"},
		{"oneline.json", "[" + a + "," + b + "," + c + "]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			data := filepath.Join(dir, "shop")
			out := mustRun(t, "import", "--data", data, "--quiet", writeFile(t, dir, tc.name, tc.content))
			if !strings.Contains(out, "imported 3 products") || !strings.Contains(out, "3 in its index") {
				t.Fatalf("import said %q", out)
			}
			var got []string
			for _, p := range expect.Some(t, "stored products", storedProducts(t, data)) {
				got = append(got, p.ProductNumber+" "+p.Title)
			}
			if want := "F1 First Lamp, F2 Middle Lamp, F3 Last Lamp"; strings.Join(got, ", ") != want {
				t.Fatalf("stored %q, want %q", got, want)
			}
		})
	}
}

// TestImportCSVWithMappingFile: README.md, "aisle import --data ./shop
// --mapping mapping.json feed.csv # CSV with a column mapping";
// docs/configuration.md, "defaults fill fields without a column and empty
// cells of mapped columns". The stored products are the golden file.
func TestImportCSVWithMappingFile(t *testing.T) {
	dir := t.TempDir()
	mapping := writeFile(t, dir, "mapping.json", `{"name": "myfeed",
 "columns": {"productNumber": "sku", "title": "name", "price": "price", "brand": "maker",
   "hierarchies": "category", "extraData.color": "colour", "extraDataList.tags": "tags"},
 "hierarchySeparator": " > ", "hierarchyDropLast": false, "lenientNumbers": false,
 "defaults": {"currency": "EUR", "inStock": "true", "brand": "House Brand"}}`)
	feed := writeFile(t, dir, "feed.csv", "sku,name,price,maker,category,colour,tags,ignored\n"+
		"S-1,Cordless Drill,1234.5,Voltmax,Tools > Power Tools > Drills,red,cordless|18V,x\n"+
		"S-2,\"Lamp, brass\",25,,Lighting,,,y\n"+
		" S-3 , Hammer ,9.99,Forge,Tools > Hand Tools,black, steel | claw ,z\n")
	data := filepath.Join(dir, "shop")
	if out := mustRun(t, "import", "--data", data, "--quiet", "--mapping", mapping, feed); !strings.Contains(out, "imported 3 products") {
		t.Fatalf("import said %q", out)
	}
	var b strings.Builder
	for _, p := range expect.Some(t, "stored products", storedProducts(t, data)) {
		pb, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(pb)
		b.WriteByte('\n')
	}
	golden.Check(t, "csv_mapping_import.jsonl", []byte(b.String()))
}

// TestImportBuiltinMappingFlipkart: README.md, "The real catalogs load with
// built-in mappings: aisle import --data /tmp/flipkart --mapping flipkart
// ../shared/data/flipkart/products.csv".
func TestImportBuiltinMappingFlipkart(t *testing.T) {
	path := datasets.SkipOrFile(t, "flipkart/products.csv")
	data := filepath.Join(t.TempDir(), "flipkart")
	out := mustRun(t, "import", "--data", data, "--quiet", "--mapping", "flipkart", path)
	if !strings.Contains(out, "imported 20000 products") || !strings.Contains(out, "20000 in its index") {
		t.Fatalf("import said %q", out)
	}
	// The mapping's defaults (currency INR, in stock) reach every product,
	// and its category path loses the last level (the product's name).
	paths := flipkartPaths(t, path)
	ps := expect.AtLeast(t, "stored products", 20000, storedProducts(t, data))
	for _, p := range ps {
		if p.Currency != "INR" || !p.InStock || !strings.HasPrefix(p.PriceFormatted, "₹") {
			t.Fatalf("product %s: currency %q, in stock %v, price %q: the mapping's defaults are missing", p.ProductNumber, p.Currency, p.InStock, p.PriceFormatted)
		}
		want := paths[p.ProductNumber]
		if len(want) > 1 {
			want = want[:len(want)-1]
		}
		var got []string
		if len(p.Hierarchies) > 0 {
			got = p.Hierarchies[0]
		}
		if len(p.Hierarchies) > 1 || !slices.Equal(got, want) {
			t.Fatalf("product %s: hierarchies %q, want [%q]", p.ProductNumber, p.Hierarchies, want)
		}
	}
}

// flipkartPaths reads the Flipkart file's category paths by uniq_id, split
// on " >> ", without empty levels.
func flipkartPaths(t *testing.T, path string) map[string][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := expect.Some(t, "flipkart rows", rows)[0]
	id, cat := slices.Index(head, "uniq_id"), slices.Index(head, "category_path")
	if id < 0 || cat < 0 {
		t.Fatalf("header %q lacks uniq_id or category_path", head)
	}
	paths := map[string][]string{}
	for _, r := range rows[1:] {
		var levels []string
		for l := range strings.SplitSeq(r[cat], " >> ") {
			if l = strings.TrimSpace(l); l != "" {
				levels = append(levels, l)
			}
		}
		paths[r[id]] = levels
	}
	return paths
}

// TestFailedImportKeepsDirectory: README.md, "An import is one atomic
// write: if it fails (a product that does not validate, a missing file)
// the directory keeps what it had".
func TestFailedImportKeepsDirectory(t *testing.T) {
	// More products than the import pipeline's batch (256) come before
	// each failure, so some have reached the store's bulk write by then.
	var many strings.Builder
	for i := range 600 {
		fmt.Fprintf(&many, `{"productNumber":"N%03d","title":"New Lamp %d","price":5}`+"\n", i, i)
	}
	dir := t.TempDir()
	good := writeFile(t, dir, "good.jsonl", many.String())
	invalidLast := writeFile(t, dir, "invalid.jsonl", many.String()+`{"productNumber":"N999","title":"  ","price":8}`+"\n")
	malformed := writeFile(t, dir, "malformed.json", "["+strings.ReplaceAll(strings.TrimSpace(many.String()), "\n", ",\n")+`, {"productNumber":`)
	missing := filepath.Join(dir, "missing.jsonl")
	other := writeFile(t, dir, "other.json", strings.Replace(shopConfig, `"key":"shop"`, `"key":"other"`, 1))
	tests := []struct {
		name string
		args []string
		want string // in the error
	}{
		{"a product that does not validate", []string{invalidLast}, `product 601 (N999): field "title": is required`},
		{"a missing file after a good one", []string{good, missing}, "missing.jsonl"},
		{"malformed JSON", []string{malformed}, "malformed.json:600: product 601"},
		{"a new configuration with a failing feed", []string{"--config", other, good, missing}, "missing.jsonl"},
	}
	for _, first := range []bool{true, false} {
		for _, tc := range tests {
			name := tc.name
			if first {
				name = "first import: " + name
			}
			t.Run(name, func(t *testing.T) {
				data := filepath.Join(t.TempDir(), "shop")
				if first {
					// The directory exists, empty.
					if err := os.MkdirAll(data, 0o755); err != nil {
						t.Fatal(err)
					}
				} else {
					data = shopDir(t, "--config", writeFile(t, t.TempDir(), "shop.json", shopConfig))
				}
				before := storedState(t, data)
				_, err := runCLI(append([]string{"import", "--data", data, "--quiet"}, tc.args...)...)
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want it to mention %q", err, tc.want)
				}
				if after := storedState(t, data); after != before {
					t.Fatalf("the failed import changed the directory:\nbefore:\n%s\nafter:\n%s", before, after)
				}
			})
		}
	}
}

// TestImportWhileServingSaysSo: "aisle import --data DIR ... while a
// server holds the directory, says so in one clear line instead of a
// pebble lock error"; the server goes on serving, and once it
// stops the import runs.
func TestImportWhileServingSaysSo(t *testing.T) {
	data := shopDir(t, "--config", writeFile(t, t.TempDir(), "shop.json", shopConfig))
	feed := writeFile(t, t.TempDir(), "more.jsonl", feedLines)
	s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k")
	_, err := runCLI("import", "--data", data, "--quiet", feed)
	if !errors.Is(err, store.ErrLocked) {
		t.Fatalf("import while serving: %v, want ErrLocked", err)
	}
	first, _, _ := strings.Cut(err.Error(), "\n")
	if want := data + " is in use by another process, most likely a running aisle serve: stop it first, or send the products to its admin API (POST /admin/v1/websites/{uuid}/products)"; first != want {
		t.Errorf("said %q, want %q", first, want)
	}
	if n := s.total(t, "shop", "*"); n != 3 {
		t.Errorf("serving %d products after the refused import, want 3", n)
	}
	s.shutdown(t)
	if out := mustRun(t, "import", "--data", data, "--quiet", feed); !strings.Contains(out, "imported 3 products") {
		t.Errorf("import after the server stopped said %q", out)
	}
}

// TestImportURLPushesToARunningServer: "aisle import --url http://HOST:PORT
// --admin-key KEY --website UUID FILE… pushes a file into a running
// server": the products are checked with the import's rules and
// sent in batches, searchable at once; a bad product stops the push
// before anything of its batch is sent, and a wrong key or website is the
// server's error in one line.
func TestImportURLPushesToARunningServer(t *testing.T) {
	data := shopDir(t)
	s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k")
	dir := t.TempDir()
	var lines []string
	for i := range 2500 { // three batches of at most 1,000
		lines = append(lines, fmt.Sprintf(`{"productNumber":"K%04d","title":"Kite %d","price":%d}`, i, i, 1+i%50))
	}
	feed := writeFile(t, dir, "kites.jsonl", strings.Join(lines, "\n"))
	url := "http://" + s.addr
	out := mustRun(t, "import", "--url", url, "--admin-key", "k", "--website", shopSite, "--quiet", feed)
	if !strings.Contains(out, "pushed 2500 products") || !strings.Contains(out, "in 3 batches") || !strings.Contains(out, "2500 added, 0 updated") {
		t.Errorf("push said %q", out)
	}
	if n := s.total(t, "default", "kite"); n != 2500 {
		t.Errorf("kite finds %d after the push", n)
	}

	bad := writeFile(t, dir, "bad.jsonl", `{"productNumber":"K9000","title":"Kite"}`+"\n"+`{"productNumber":"K9001"}`)
	_, err := runCLI("import", "--url", url, "--admin-key", "k", "--website", shopSite, "--quiet", bad)
	if err == nil || !strings.Contains(err.Error(), `product 2 (K9001): field "title"`) {
		t.Errorf("a bad product: %v", err)
	}
	if n := s.total(t, "default", "K9000"); n != 0 {
		t.Errorf("the batch of the bad product was partly sent: K9000 finds %d", n)
	}
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--admin-key", "nope", "--website", shopSite}, "answered 401 UNAUTHORIZED: the API key is not valid"},
		{[]string{"--admin-key", "k", "--website", "other"}, `answered 404 NOT_FOUND: websiteUuid: no website "other"`},
		{[]string{"--website", shopSite}, "--admin-key KEY is required"},
		{[]string{"--admin-key", "k"}, "--website UUID is required"},
		{[]string{"--admin-key", "k", "--website", shopSite, "--data", data}, "--data and --config do not apply"},
	} {
		args := append(append([]string{"import", "--url", url, "--quiet"}, tc.args...), feed)
		if _, err := runCLI(args...); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.says)
		}
	}
}
