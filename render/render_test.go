package render

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func TestDefaultSearch(t *testing.T) {
	tm, err := Compile("search", "")
	if err != nil {
		t.Fatal(err)
	}
	out, err := tm.Execute(context.Background(), &SearchView{
		Query:      "drill <b>",
		Total:      2,
		Products:   []Item{{"title": "Drill & Driver", "url": "https://x/p/1", "priceFormatted": "$9.99"}, {"title": "Bit set", "url": "https://x/p/2"}},
		Suggested:  []bool{false, true},
		Categories: []Item{{"title": "Drills", "url": "https://x/c/drills"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`data-query="drill &lt;b&gt;"`, "2 products", "Drill &amp; Driver", "$9.99", "aisle-suggested", `class="aisle-categories"`, "https://x/c/drills"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestEmptyShowsInitialContent(t *testing.T) {
	tm, _ := Compile("search", "")
	out, err := tm.Execute(context.Background(), &SearchView{Query: "zzz", Initial: []Item{{"title": "Bestseller", "url": "u"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "No products match") || !strings.Contains(out, "Bestseller") {
		t.Fatalf("got %s", out)
	}
}

func TestCompileError(t *testing.T) {
	if _, err := Compile("bad", "{{.Query"); err == nil || !strings.Contains(err.Error(), "template bad") {
		t.Fatalf("err = %v", err)
	}
}

// TestHelpers: money and urlWith, as templates call them.
func TestHelpers(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`{{money 1234.5 "USD"}}`, "$1,234.50"},
		{`{{money 99 "DKK"}}`, "99.00 DKK"},
		{`{{money 0.005 "eur"}}`, "€0.01"},
		{`{{money -1234567.891 "GBP"}}`, "-£1,234,567.89"},
		{`{{money 5 ""}}`, "5.00"},
		{`{{money "12.5" "USD"}}`, "$12.50"},
		{`{{money "cheap" "USD"}}`, ""},
		{`<a href="{{urlWith "https://shop.test/garden?page=2" "filter" "brand:Zinc & Co"}}">`, `<a href="https://shop.test/garden?filter=brand%3AZinc&#43;%26&#43;Co&amp;page=2">`},
		{`<a href="{{urlWith "javascript:alert(1)" "x" "y"}}">`, `<a href="#ZgotmplZ">`},
	} {
		tm, err := Compile("t", tc.src)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := tm.Execute(context.Background(), &SearchView{}); err != nil || got != tc.want {
			t.Errorf("%s: %q %v, want %q", tc.src, got, err, tc.want)
		}
	}
}

// TestTemplatesReachNothingElse: a template naming a function it is not
// given (files, the environment, the network) does not compile.
func TestTemplatesReachNothingElse(t *testing.T) {
	for _, src := range []string{`{{readFile "/etc/passwd"}}`, `{{env "HOME"}}`, `{{http "https://x"}}`, `{{exec "ls"}}`} {
		if _, err := Compile("t", src); err == nil || !strings.Contains(err.Error(), "not defined") {
			t.Errorf("%s: %v, want the function not defined", src, err)
		}
	}
}

// TestWrap: style before and script after the html, each only when set,
// and neither able to close its element early.
func TestWrap(t *testing.T) {
	for _, tc := range []struct{ style, html, js, want string }{
		{"", "<p>x</p>", "", "<p>x</p>"},
		{"p{color:red}", "<p>x</p>", "", "<style>p{color:red}</style><p>x</p>"},
		{"", "<p>x</p>", "go()", "<p>x</p><script>go()</script>"},
		{"a{}</style><b>", "<p>x</p>", "s='</script><i>'", `<style>a{}<\/style><b></style><p>x</p><script>s='<\/script><i>'</script>`},
	} {
		if got := Wrap(tc.style, tc.html, tc.js); got != tc.want {
			t.Errorf("Wrap(%q, %q, %q) = %q, want %q", tc.style, tc.html, tc.js, got, tc.want)
		}
	}
}

// BenchmarkDefaultSearch renders the built-in search template with a
// page of 100 products.
func BenchmarkDefaultSearch(b *testing.B) {
	tm, err := Compile("search", "")
	if err != nil {
		b.Fatal(err)
	}
	v := &SearchView{Query: "drill", Total: 1000}
	for i := range 100 {
		v.Products = append(v.Products, Item{"title": fmt.Sprintf("Drill & Driver %d", i), "url": fmt.Sprintf("https://x/p/%d", i),
			"priceFormatted": "$9.99", "brand": "Acme", "imgUrl": "https://x/i.jpg"})
		v.Suggested = append(v.Suggested, i%10 == 0)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tm.Execute(context.Background(), v); err != nil {
			b.Fatal(err)
		}
	}
}
