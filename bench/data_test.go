package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/datasets"
	"github.com/aisle-search/aisle/demo"
	"github.com/aisle-search/aisle/internal/expect"
)

// TestFindSharedData: datasets.Dir, "returns $AISLE_SHARED_DATA when set,
// or walks up from the working directory to the shared/data folder", and
// says to pass --shared when there is none.
func TestFindSharedData(t *testing.T) {
	root := t.TempDir()
	data := filepath.Join(root, "shared", "data")
	deep := filepath.Join(root, "checkout", "cmd", "aisle")
	for _, d := range []string{data, deep} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	same := func(got, want string) bool {
		g, _ := filepath.EvalSymlinks(got)
		w, _ := filepath.EvalSymlinks(want)
		return got == want || g == w && g != ""
	}

	t.Setenv(datasets.DirEnv, "")
	t.Chdir(deep)
	got, err := FindSharedData()
	if err != nil || !same(got, data) {
		t.Fatalf("walking up from %s: %q, %v; want %q", deep, got, err, data)
	}

	elsewhere := filepath.Join(root, "elsewhere")
	if err := os.MkdirAll(elsewhere, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(datasets.DirEnv, elsewhere)
	if got, err := FindSharedData(); err != nil || got != elsewhere {
		t.Fatalf("%s=%s: %q, %v", datasets.DirEnv, elsewhere, got, err)
	}
	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(datasets.DirEnv, file)
	if _, err := FindSharedData(); err == nil || !strings.Contains(err.Error(), file) {
		t.Fatalf("%s naming a file: %v, want an error naming it", datasets.DirEnv, err)
	}

	// Outside any checkout: an error saying to pass --shared, unless a
	// shared/data folder sits above the system's temporary directory, when
	// it is that folder.
	t.Setenv(datasets.DirEnv, "")
	outside := t.TempDir()
	t.Chdir(outside)
	got, err = FindSharedData()
	if err != nil {
		if !strings.Contains(err.Error(), "--shared") || !strings.Contains(err.Error(), datasets.DirEnv) {
			t.Fatalf("err = %v, want it to say to pass --shared or set %s", err, datasets.DirEnv)
		}
		return
	}
	above := filepath.Dir(filepath.Dir(got))
	if fi, serr := os.Stat(got); serr != nil || !fi.IsDir() || filepath.Base(got) != "data" || filepath.Base(filepath.Dir(got)) != "shared" ||
		!strings.HasPrefix(outside, above+string(filepath.Separator)) && above != string(filepath.Separator) {
		t.Fatalf("from %s found %q, which is no shared/data folder above it", outside, got)
	}
	t.Logf("a shared/data folder sits above %s: %s", outside, got)
}

func TestCSVCatalogErrors(t *testing.T) {
	tests := []struct {
		name, catalog, want string
	}{
		{"unknown mapping", "acme", `no built-in mapping "acme"`},
		{"missing file", "homedepot", "catalog homedepot"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := CSVCatalog(t.TempDir(), tc.catalog); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestRealCatalogs reads the shared catalogs through the built-in
// mappings: every row becomes a product with a number and a title.
func TestRealCatalogs(t *testing.T) {
	dir := datasets.SkipOrDir(t)
	tests := []struct {
		name      string
		products  int
		firstPN   string
		titleHint string
	}{
		{"homedepot", 54667, "100001", "Simpson Strong-Tie"},
		{"flipkart", 20000, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			datasets.SkipOrFile(t, tc.name)
			src, err := CSVCatalog(dir, tc.name)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			err = src(func(p *catalog.Product) error {
				if n == 0 && tc.firstPN != "" && (p.ProductNumber != tc.firstPN || !strings.Contains(p.Title, tc.titleHint)) {
					t.Errorf("first product %q %q", p.ProductNumber, p.Title)
				}
				if p.ProductNumber == "" || p.Title == "" {
					t.Errorf("product %d: number %q, title %q", n, p.ProductNumber, p.Title)
				}
				n++
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if n != tc.products {
				t.Fatalf("%d products, want %d", n, tc.products)
			}
		})
	}
}

// TestRequestsAnswer builds a small generated catalog and checks that every
// query class makes requests the engine accepts, and that filters and
// facets select real products rather than empty pages.
func TestRequestsAnswer(t *testing.T) {
	cfg := demo.Config()
	g, err := Build(&cfg.Websites[0], Generated(2000, 5))
	if err != nil {
		t.Fatal(err)
	}
	if g.Products.Len() != 2000 {
		t.Fatalf("%d products indexed, want 2000", g.Products.Len())
	}
	qs := demo.Queries(50, 1)
	for _, c := range Classes {
		t.Run(c.String(), func(t *testing.T) {
			reqs, err := Requests(g, "demo", qs, c, 40, 9)
			if err != nil {
				t.Fatal(err)
			}
			if len(reqs) != 40 {
				t.Fatalf("%d requests, want 40", len(reqs))
			}
			found := 0
			for _, r := range reqs {
				res, err := g.Search(r.Req)
				if err != nil {
					t.Fatalf("%s: %v", r.Body, err)
				}
				if len(res.Products.Hits) > 0 {
					found++
				}
				if c == ClassFacets && len(res.Products.Filters) == 0 {
					t.Fatalf("%s: no facets returned", r.Body)
				}
				if len(res.AppendJSON(nil)) == 0 {
					t.Fatalf("%s: empty JSON", r.Body)
				}
			}
			// Filter values come from matching products: a class whose
			// pages are mostly empty would measure nothing. A prefix of
			// one letter completes nothing (prefixes take 2 letters,
			// docs/decisions.md): half of that class is one letter.
			want := 8
			if c == ClassPrefix {
				want = 4
			}
			if found < len(reqs)*want/10 {
				t.Fatalf("%d of %d requests of class %s found a product, want %d0%%", found, len(reqs), c, want)
			}
		})
	}
}

// TestTreeRSS counts a child process in its parent's tree.
func TestTreeRSS(t *testing.T) {
	self := ProcessRSS(os.Getpid())
	if self <= 0 {
		if runtime.GOOS == "linux" {
			t.Fatal("ProcessRSS found no resident set for this process in /proc")
		}
		expect.SkipOrFail(t, "CI", "ProcessRSS reads /proc, which "+runtime.GOOS+" lacks")
	}
	child := exec.Command("sleep", "5")
	if err := child.Start(); err != nil {
		t.Fatal("cannot start sleep:", err)
	}
	defer child.Process.Kill()
	for range 100 { // until the child has exec'd and has a resident set
		if ProcessRSS(child.Process.Pid) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	kid := ProcessRSS(child.Process.Pid)
	if tree := TreeRSS(os.Getpid()); kid <= 0 || tree < kid+self/2 {
		t.Fatalf("tree %d, self %d, child %d", tree, self, kid)
	}
	if parentPID(child.Process.Pid) != os.Getpid() || parentPID(-1) != -1 {
		t.Fatal("parent pid misread")
	}
}

// TestSettledRSS: an idle process's resident set settles at once, and
// within bounds the wait.
func TestSettledRSS(t *testing.T) {
	if ProcessRSS(os.Getpid()) <= 0 {
		expect.SkipOrFail(t, "CI", "SettledRSS reads /proc, which "+runtime.GOOS+" lacks")
	}
	start := time.Now()
	if rss := SettledRSS(os.Getpid(), 10*time.Second); rss <= 0 {
		t.Errorf("SettledRSS of this process = %d", rss)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("an idle process took %s to settle, want about 300 ms", took)
	}
	start = time.Now()
	SettledRSS(os.Getpid(), 0)
	if took := time.Since(start); took > time.Second {
		t.Errorf("with no time to wait, SettledRSS took %s", took)
	}
}
