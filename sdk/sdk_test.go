package sdk

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// maxScriptBytes bounds /sdk.js as served (minified, before gzip): 15 kB.
const maxScriptBytes = 15000

// TestScriptSize: /sdk.js, minified, stays under 15 kB, and its gzip
// form inflates to it. The sizes are logged.
func TestScriptSize(t *testing.T) {
	js, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	gz, err := Gzipped()
	if err != nil {
		t.Fatal(err)
	}
	raw := 0
	for _, n := range Sources {
		b, err := Source(n)
		if err != nil {
			t.Fatal(err)
		}
		raw += len(b)
	}
	t.Logf("/sdk.js: sources %d bytes, minified %d, gzip %d", raw, len(js), len(gz))
	if len(js) >= maxScriptBytes {
		t.Errorf("minified /sdk.js is %d bytes, want under %d", len(js), maxScriptBytes)
	}
	r, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	back, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(back, js) {
		t.Errorf("the gzip form does not inflate to the script: %v", err)
	}
}

// TestSourcesParse: each source file parses alone as a script of the
// target's language (esbuild, as the build does), so a syntax error
// names its file; a file with one fails.
func TestSourcesParse(t *testing.T) {
	for _, n := range Sources {
		b, err := Source(n)
		if err != nil {
			t.Fatal(err)
		}
		if err := parse(string(b)); err != "" {
			t.Errorf("%s: %s", n, err)
		}
	}
	if err := parse("(function () { var a = ; })();"); err == "" {
		t.Error("a syntax error parsed")
	}
}

func parse(src string) string {
	res := api.Transform(src, api.TransformOptions{Loader: api.LoaderJS, Target: api.ES2018})
	if len(res.Errors) == 0 {
		return ""
	}
	e := res.Errors[0]
	if e.Location != nil {
		return e.Location.LineText + ": " + e.Text
	}
	return e.Text
}
