package sdk

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/valyala/fasthttp"
)

// The paths the files are served at.
const (
	ScriptPath = "/sdk.js"     // aisle.js and instantsearch.js, minified
	TypesPath  = "/aisle.d.ts" // aisle.d.ts as written
)

// CacheControl is the files' Cache-Control: a day, public. A page that
// must see a new SDK at once loads /sdk.js?v=VERSION (docs/sdk.md); the
// others revalidate with If-None-Match once a day and get a 304 while
// the file is unchanged.
const CacheControl = "public, max-age=86400"

// Sources are the script's source files, joined in this order into
// ScriptPath: aisle.js defines window.Aisle, instantsearch.js adds
// Aisle.instantsearch to it.
var Sources = []string{"aisle.js", "instantsearch.js"}

//go:embed aisle.js instantsearch.js aisle.d.ts
var files embed.FS

// Source returns one of the embedded files as written (a name of
// Sources, or "aisle.d.ts").
func Source(name string) ([]byte, error) {
	return files.ReadFile(name)
}

// file is a served file: its bytes, gzipped, and their strong ETags.
type file struct {
	contentType    string
	raw, gz        []byte
	etag, etagGzip string
}

// served are the files, built once at first use (Load).
var served = sync.OnceValues(build)

// Load builds the served files (the script joined and minified, both
// gzipped) and returns the script as served. A server calls it at start
// so that the first request waits for nothing and a broken build shows
// at once.
func Load() ([]byte, error) {
	m, err := served()
	if err != nil {
		return nil, err
	}
	return m[ScriptPath].raw, nil
}

// Minify joins the named sources and minifies them with esbuild, for
// browsers of ES2018 and later.
func Minify(names ...string) ([]byte, error) {
	var src bytes.Buffer
	for _, n := range names {
		b, err := files.ReadFile(n)
		if err != nil {
			return nil, err
		}
		src.Write(b)
		src.WriteByte('\n')
	}
	res := api.Transform(src.String(), api.TransformOptions{
		Loader:            api.LoaderJS,
		Target:            api.ES2018,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		LegalComments:     api.LegalCommentsNone,
		Charset:           api.CharsetUTF8,
	})
	if len(res.Errors) > 0 {
		e := res.Errors[0]
		where := ""
		if e.Location != nil {
			where = fmt.Sprintf(" at line %d, column %d", e.Location.Line, e.Location.Column)
		}
		return nil, fmt.Errorf("sdk: minify%s: %s", where, e.Text)
	}
	return res.Code, nil
}

func build() (map[string]*file, error) {
	js, err := Minify(Sources...)
	if err != nil {
		return nil, err
	}
	dts, err := files.ReadFile("aisle.d.ts")
	if err != nil {
		return nil, err
	}
	return map[string]*file{
		ScriptPath: newFile("text/javascript; charset=utf-8", js),
		TypesPath:  newFile("text/plain; charset=utf-8", dts),
	}, nil
}

func newFile(contentType string, raw []byte) *file {
	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	w.Write(raw) //nolint:errcheck // into memory
	w.Close()    //nolint:errcheck // into memory
	sum := sha256.Sum256(raw)
	tag := hex.EncodeToString(sum[:12])
	return &file{contentType: contentType, raw: raw, gz: gz.Bytes(), etag: `"` + tag + `"`, etagGzip: `"` + tag + `-gz"`}
}

// Gzipped returns the script as served to a client that accepts gzip.
func Gzipped() ([]byte, error) {
	m, err := served()
	if err != nil {
		return nil, err
	}
	return m[ScriptPath].gz, nil
}

// Serve answers a GET or HEAD of ScriptPath or TypesPath (the caller
// checks path and method): the file, gzipped when the client accepts
// it, with a strong ETag (one per encoding), CacheControl and
// Vary: Accept-Encoding; a 304 when If-None-Match names either ETag. It
// returns an error only when the files cannot be built, which the
// package's tests rule out.
func Serve(ctx *fasthttp.RequestCtx, path string) error {
	m, err := served()
	if err != nil {
		return err
	}
	f, ok := m[path]
	if !ok {
		return fmt.Errorf("sdk: no file %s", path)
	}
	h := &ctx.Response.Header
	h.Add("Vary", "Accept-Encoding")
	h.Set("Cache-Control", CacheControl)
	h.Set("X-Content-Type-Options", "nosniff")
	h.SetContentType(f.contentType)
	body, etag := f.raw, f.etag
	if ctx.Request.Header.HasAcceptEncoding("gzip") {
		body, etag = f.gz, f.etagGzip
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("ETag", etag)
	if matches(string(ctx.Request.Header.Peek("If-None-Match")), f) {
		ctx.SetStatusCode(fasthttp.StatusNotModified)
		ctx.Response.SkipBody = true
		return nil
	}
	ctx.SetBody(body)
	return nil
}

// matches says whether an If-None-Match header names one of f's ETags
// (or is "*").
func matches(inm string, f *file) bool {
	for t := range strings.SplitSeq(inm, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == f.etag || t == f.etagGzip {
			return true
		}
	}
	return false
}
