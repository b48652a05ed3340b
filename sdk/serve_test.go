package sdk_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/sdk"
)

// TestServe: GET /sdk.js is the minified script and GET /aisle.d.ts the
// declarations, each gzipped for a client that accepts it, cached a day,
// with a strong ETag per encoding that If-None-Match turns into a 304;
// HEAD answers the headers alone; another method is a 405.
func TestServe(t *testing.T) {
	a := serveAPI(t)
	js, err := sdk.Load()
	if err != nil {
		t.Fatal(err)
	}
	dts, err := sdk.Source("aisle.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	send := func(method, path string, hdr ...string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, a.url+path, nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		tr := &http.Transport{DisableCompression: true}
		res, err := tr.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res, body
	}
	for _, tc := range []struct {
		path, ctype string
		want        []byte
	}{
		{sdk.ScriptPath, "text/javascript; charset=utf-8", js},
		{sdk.TypesPath, "text/plain; charset=utf-8", dts},
	} {
		plain, body := send("GET", tc.path)
		if plain.StatusCode != 200 || !bytes.Equal(body, tc.want) || plain.Header.Get("Content-Type") != tc.ctype ||
			plain.Header.Get("Cache-Control") != sdk.CacheControl || plain.Header.Get("Content-Encoding") != "" {
			t.Errorf("GET %s: %d %v, %d bytes", tc.path, plain.StatusCode, plain.Header, len(body))
		}
		zipped, zbody := send("GET", tc.path, "Accept-Encoding", "gzip")
		zr, err := gzip.NewReader(bytes.NewReader(zbody))
		if err != nil {
			t.Fatalf("GET %s gzip: %v", tc.path, err)
		}
		inflated, _ := io.ReadAll(zr)
		if zipped.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(inflated, tc.want) || len(zbody) >= len(body) ||
			!strings.Contains(strings.Join(zipped.Header.Values("Vary"), ","), "Accept-Encoding") {
			t.Errorf("GET %s gzip: %v, %d bytes", tc.path, zipped.Header, len(zbody))
		}
		etag, zetag := plain.Header.Get("ETag"), zipped.Header.Get("ETag")
		if !strings.HasPrefix(etag, `"`) || etag == zetag {
			t.Errorf("ETags %s and %s: want strong, one per encoding", etag, zetag)
		}
		for _, inm := range []string{etag, zetag, `"other", ` + etag} {
			res, b := send("GET", tc.path, "If-None-Match", inm)
			if res.StatusCode != 304 || len(b) != 0 {
				t.Errorf("If-None-Match %s: %d, %d bytes", inm, res.StatusCode, len(b))
			}
		}
		if res, _ := send("GET", tc.path, "If-None-Match", `"other"`); res.StatusCode != 200 {
			t.Errorf("If-None-Match of another file: %d", res.StatusCode)
		}
		head, hb := send("HEAD", tc.path)
		if head.StatusCode != 200 || len(hb) != 0 || head.Header.Get("ETag") != etag {
			t.Errorf("HEAD %s: %d, %d bytes, %v", tc.path, head.StatusCode, len(hb), head.Header)
		}
		for _, m := range []string{"POST", "PUT", "DELETE"} {
			if res, b := send(m, tc.path); res.StatusCode != 405 || res.Header.Get("Allow") != "GET, HEAD" || !bytes.Contains(b, []byte("METHOD_NOT_ALLOWED")) {
				t.Errorf("%s %s: %d %s", m, tc.path, res.StatusCode, b)
			}
		}
	}
}
