package render

import (
	"context"
	"errors"
	"html/template"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestBoundsStopHostileTemplates: whatever a template does, its render
// stops with ErrTooLarge or ErrTimeout, soon after its bound and with
// little memory: output past its bytes, text made by functions past
// them (doubling a variable, escaping it again and again, a dict holding
// a value many times over), and loops or template calls that write
// nothing past its duration. The size bounds are checked with 1 MiB and
// 20 s, so a loaded machine cannot stop them on time first; the time
// bounds with 200 ms.
func TestBoundsStopHostileTemplates(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      error
	}{
		{"huge range", `{{range $i := 2000000000}}` + strings.Repeat("x", 4096) + `{{end}}`, ErrTooLarge},
		{"huge range in an attribute", `<a title="{{range $i := 2000000000}}` + strings.Repeat("x", 4096) + `{{end}}">`, ErrTooLarge},
		{"huge action", `{{range $i := 2000000000}}{{$.Query}}{{end}}`, ErrTooLarge},
		{"print doubling", `{{$x := "xxxxxxxx"}}{{range $i := 64}}{{$x = print $x $x}}{{end}}`, ErrTooLarge},
		{"printf doubling", `{{$x := "xxxxxxxx"}}{{range $i := 64}}{{$x = printf "%s%s" $x $x}}{{end}}`, ErrTooLarge},
		{"printf width", `{{printf "%1000000d%1000000d%1000000d%1000000d%1000000d%1000000d%1000000d%1000000d%1000000d" 1 2 3 4 5 6 7 8 9}}`, ErrTooLarge},
		{"printf width of a list", `{{printf "%1000000v" .Suggested}}`, ErrTooLarge},
		{"js doubling", `{{$x := "\\"}}{{range $i := 64}}{{$x = js $x}}{{end}}`, ErrTooLarge},
		{"urlWith doubling", `{{$x := "u"}}{{range $i := 64}}{{$x = urlWith $x $x $x}}{{end}}`, ErrTooLarge},
		{"variables each large", `{{$x := "xxxxxxxxxxxxxxxx"}}{{range 20}}{{$x = print $x $x}}{{end}}{{range 1000}}{{$y := print $x}}{{end}}`, ErrTooLarge},
		{"dict holding a value many times", `{{$x := "xxxxxxxx"}}{{range 15}}{{$x = print $x $x}}{{end}}{{dict "a" $x "b" $x "c" $x "d" $x "e" $x}}`, ErrTooLarge},
		{"silent range", `{{range $i := 2000000000}}{{end}}`, ErrTimeout},
		{"silent nested ranges", `{{range 100000}}{{range 100000}}{{if false}}x{{end}}{{end}}{{end}}`, ErrTimeout},
		{"silent calls", `{{define "a"}}{{end}}{{define "b"}}{{template "a"}}{{template "a"}}{{end}}{{define "c"}}{{template "b"}}{{template "b"}}{{end}}` +
			`{{define "d"}}{{template "c"}}{{template "c"}}{{end}}{{define "e"}}{{template "d"}}{{template "d"}}{{end}}` +
			`{{define "f"}}{{range 1000000000}}{{template "e"}}{{end}}{{end}}{{template "f"}}`, ErrTimeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lim := limits{bytes: 1 << 20, duration: 20 * time.Second}
			if tc.want == ErrTimeout {
				t.Parallel()
				lim = limits{bytes: MaxBytes, duration: 200 * time.Millisecond}
			}
			tm := compileLimited(t, tc.src, lim)
			start := time.Now()
			out, err := tm.Execute(context.Background(), &SearchView{Query: strings.Repeat("drill ", 10000), Suggested: []bool{true, false}})
			if !errors.Is(err, tc.want) || out != "" {
				t.Fatalf("%q, %v; want no page and %v", trim(out), err, tc.want)
			}
			if d := time.Since(start); d > lim.duration+2*time.Second {
				t.Errorf("stopped after %v", d)
			}
		})
	}
}

// TestRenderMemoryBounded: the huge range's render allocates a few times
// MaxBytes, not the 32 GB it would write (given 30 s, so that it is the
// size that stops it).
func TestRenderMemoryBounded(t *testing.T) {
	tm := compileLimited(t, `{{range $i := 2000000000}}xxxxxxxxxxxxxxxx{{end}}`, limits{bytes: MaxBytes, duration: 30 * time.Second})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := tm.Execute(context.Background(), &SearchView{}); !errors.Is(err, ErrTooLarge) {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 8*MaxBytes {
		t.Errorf("the render allocated %d bytes", n)
	}
}

// TestRenderCanceled: a render stops once its context is done, with
// ErrCanceled and the context's cause.
func TestRenderCanceled(t *testing.T) {
	tm, err := Compile("t", `{{range $i := 2000000000}}{{end}}`)
	if err != nil {
		t.Fatal(err)
	}
	cause := errors.New("the client left")
	ctx, cancel := context.WithCancelCause(context.Background())
	time.AfterFunc(50*time.Millisecond, func() { cancel(cause) })
	start := time.Now()
	_, err = tm.Execute(ctx, &SearchView{})
	if !errors.Is(err, ErrCanceled) || !errors.Is(err, cause) {
		t.Fatalf("err = %v, want %v and %v", err, ErrCanceled, cause)
	}
	if d := time.Since(start); d >= MaxDuration {
		t.Errorf("stopped after %v", d)
	}
	// A context's deadline earlier than MaxDuration is the render's.
	ctx, stop := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer stop()
	if _, err := tm.Execute(ctx, &SearchView{}); !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want %v", err, ErrTimeout)
	}
}

// TestRecursionRefused: a template calling itself, directly or through
// others, does not compile; one calling others many times does.
func TestRecursionRefused(t *testing.T) {
	for _, src := range []string{
		`{{define "a"}}{{template "a" .}}{{end}}{{template "a" .}}`,
		`{{define "a"}}{{if .}}{{template "b" .}}{{end}}{{end}}{{define "b"}}{{range .}}{{template "a" .}}{{end}}{{end}}{{template "a" .}}`,
		`{{block "list" .}}{{range .Products}}{{template "list" .}}{{end}}{{end}}`,
	} {
		if _, err := Compile("t", src); err == nil || !strings.Contains(err.Error(), "calls itself") {
			t.Errorf("%s: %v, want recursion refused", src, err)
		}
	}
	if _, err := Compile("t", `{{define "a"}}x{{end}}{{define "b"}}{{template "a"}}{{template "a"}}{{end}}{{template "b"}}{{template "a"}}`); err != nil {
		t.Error(err)
	}
}

// TestTicksWriteNothing: the checks Compile adds write nothing and change
// nothing, in any html context, and the bounded builtins make what
// text/template's do: a template renders as html/template renders it
// unchanged, with the builtins.
func TestTicksWriteNothing(t *testing.T) {
	view := &SearchView{Query: "drill <b>", Total: 2, Suggested: []bool{false, true},
		Products:   []Item{{"title": "Drill & Driver", "url": "https://x/p/1", "priceFormatted": "$9.99", "sponsored": true}, {"title": "Bit set", "url": "https://x/p/2"}},
		Categories: []Item{{"title": "Drills", "url": "https://x/c/drills"}}}
	for _, src := range []string{
		DefaultSearch,
		`<a {{range .Suggested}}data-x {{end}}href="{{range .Products}}{{index . "url"}}{{end}}">`,
		`<script>var t = [{{range .Products}}{{index . "title"}},{{end}}];</script>`,
		`<style>{{range .Products}}.p{color:red}{{end}}</style>`,
		`{{define "p"}}<b>{{index . "title"}}</b>{{end}}{{range $i, $p := .Products}}{{if $i}}, {{end}}{{template "p" $p}}{{end}}`,
		`{{range $i := 3}}{{if eq $i 1}}{{continue}}{{end}}{{$i}}{{if eq $i 1}}{{break}}{{end}}{{end}}{{range .Brands}}x{{else}}none{{end}}`,
		`{{print .Query 1 .Suggested}}|{{printf "%s-%05d-%q-%v" .Query 2 .Query .Products}}|{{println .Query}}|{{html .Query}}|{{.Query | urlquery}}|<script>var q = "{{js .Query}}";</script>`,
		`{{$x := print .Query}}{{$x = printf "%x" $x}}{{$x = js $x}}{{$x = html $x}}{{$x = urlquery $x}}{{$x}}`,
	} {
		tm, err := Compile("t", src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tm.Execute(context.Background(), view)
		if err != nil {
			t.Fatal(err)
		}
		var r run
		r.start(context.Background(), defaultLimits)
		shops := funcsFor(&r)
		for _, builtin := range []string{"print", "printf", "println", "html", "js", "urlquery"} {
			delete(shops, builtin)
		}
		plain := template.Must(template.New("t").Funcs(shops).Option("missingkey=zero").Parse(src))
		var want strings.Builder
		if err := plain.Execute(&want, view); err != nil {
			t.Fatal(err)
		}
		if got != want.String() {
			t.Errorf("%s:\ngot  %s\nwant %s", src, got, want.String())
		}
	}
}

// TestRendersConcurrently: renders of one template at once each get
// their own page and bounds.
func TestRendersConcurrently(t *testing.T) {
	tm, err := Compile("t", `{{if eq .Query "spin"}}{{range 2000000000}}{{end}}{{end}}<p>{{.Query}}</p>`)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	spun := make(chan error)
	go func() {
		_, err := tm.Execute(ctx, &SearchView{Query: "spin"})
		spun <- err
	}()
	for i := range 100 {
		q := strings.Repeat("q", i)
		if out, err := tm.Execute(context.Background(), &SearchView{Query: q}); err != nil || out != "<p>"+q+"</p>" {
			t.Fatalf("%q %v", out, err)
		}
	}
	cancel()
	if err := <-spun; !errors.Is(err, ErrCanceled) {
		t.Fatal(err)
	}
}

func trim(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// TestDictsDoNotNest: a dict's value may be anything but another dict,
// which could hold a third many times over, and so on.
func TestDictsDoNotNest(t *testing.T) {
	tm, err := Compile("t", `{{$d := dict "a" "x"}}{{range $i := 64}}{{$d = dict "a" $d "b" $d}}{{end}}{{$d}}`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tm.Execute(context.Background(), &SearchView{}); err == nil || !strings.Contains(err.Error(), "dicts do not nest") {
		t.Fatalf("err = %v", err)
	}
	tm, err = Compile("t", `{{range $k, $v := dict "q" .Query "n" 2}}{{$k}}={{$v}};{{end}}{{(dict "p" .Products).p}}`)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := tm.Execute(context.Background(), &SearchView{Query: "x"}); err != nil || out != "n=2;q=x;[]" {
		t.Fatalf("%q %v", out, err)
	}
}

// compileLimited is Compile with bounds of a test's own.
func compileLimited(t *testing.T, src string, lim limits) *Template {
	t.Helper()
	tm, err := Compile("t", src)
	if err != nil {
		t.Fatal(err)
	}
	tm.lim = lim
	return tm
}
