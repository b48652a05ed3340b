package catalog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/goccy/go-json"
)

// Format names a feed file's layout, so the CLI and callers of Read can
// say which reader to use.
type Format string

// The feed formats Aisle imports.
const (
	FormatJSONL Format = "jsonl" // one product object per line
	FormatJSON  Format = "json"  // one array of product objects
	FormatCSV   Format = "csv"   // a header row and one product per record, read through a CSVMapping
)

// DetectFormat picks the reader from a file's name and first bytes, so
// `aisle import` needs no --format flag: .jsonl and .ndjson are JSONL, .csv
// is CSV, and .json is a JSON array unless its first value is an object,
// when it is read as JSONL.
func DetectFormat(name string, head []byte) (Format, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".jsonl", ".ndjson":
		return FormatJSONL, nil
	case ".json":
		head = bytes.TrimPrefix(head, utf8BOM)
		if t := bytes.TrimLeft(head, " \t\r\n"); len(t) > 0 && t[0] == '{' {
			return FormatJSONL, nil
		}
		return FormatJSON, nil
	case ".csv":
		return FormatCSV, nil
	}
	return "", fmt.Errorf("%s: unknown feed format %q: name the file .jsonl, .ndjson, .json or .csv", name, filepath.Ext(name))
}

// ReadOptions configures Read, so one entry point serves every format.
type ReadOptions struct {
	Format  Format
	Mapping *CSVMapping // required for FormatCSV
	Name    string      // file name for messages; "feed" when empty
}

const readBufferSize = 1 << 20

var utf8BOM = []byte("\xef\xbb\xbf")

// Read streams products from r to fn in file order, so a feed of any size
// is imported in constant memory. It stops at the first error, its own or
// fn's, and prefixes every error with the file name and the line (JSONL,
// JSON) or line and record number (CSV). Each call of fn gets a fresh
// Product, which fn may keep. A leading UTF-8 byte order mark is skipped.
func Read(r io.Reader, opt ReadOptions, fn func(*Product) error) error {
	name := opt.Name
	if name == "" {
		name = "feed"
	}
	switch opt.Format {
	case FormatJSONL, FormatJSON, FormatCSV:
	default:
		return fmt.Errorf("%s: unknown format %q (jsonl, json or csv)", name, opt.Format)
	}
	if opt.Format == FormatCSV && opt.Mapping == nil {
		return fmt.Errorf("%s: a CSV feed needs a column mapping: pass --mapping NAME or FILE (built in: %s)", name, strings.Join(BuiltinMappings(), ", "))
	}
	br := bufio.NewReaderSize(r, readBufferSize)
	if head, _ := br.Peek(len(utf8BOM)); bytes.Equal(head, utf8BOM) {
		_, _ = br.Discard(len(utf8BOM))
	}
	switch opt.Format {
	case FormatJSONL:
		return readJSONL(br, name, fn)
	case FormatJSON:
		return readJSONArray(br, name, fn)
	default:
		return readCSV(br, name, opt.Mapping, fn)
	}
}

// ReadFile opens a feed, detects its format from the name and first bytes
// and reads it, so the CLI imports any file with one call. A CSV file needs
// mapping. onBytes (may be nil) is told the bytes read so far at least
// every MiB and once at the end, for a progress bar. Messages name the
// file by its base name.
func ReadFile(path string, mapping *CSVMapping, onBytes func(n int64), fn func(*Product) error) error {
	name := filepath.Base(path)
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open feed: %w", err)
	}
	defer f.Close()
	cr := &progressReader{r: f, onBytes: onBytes}
	br := bufio.NewReaderSize(cr, readBufferSize)
	head, _ := br.Peek(512)
	format, err := DetectFormat(name, head)
	if err != nil {
		return err
	}
	err = Read(br, ReadOptions{Format: format, Mapping: mapping, Name: name}, fn)
	if onBytes != nil {
		onBytes(cr.n)
	}
	return err
}

// progressReader counts the bytes read and reports them: each read is at
// most progressStep bytes and any read that brings the count progressMin
// past the last report is reported, so reports are never more than a MiB
// apart and never more often than every progressMin bytes.
type progressReader struct {
	r       io.Reader
	n, last int64
	onBytes func(int64)
}

const (
	progressMin  = 64 << 10
	progressStep = 1<<20 - progressMin
)

func (c *progressReader) Read(p []byte) (int, error) {
	if c.onBytes != nil && len(p) > progressStep {
		p = p[:progressStep]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.onBytes != nil && c.n-c.last >= progressMin {
		c.last = c.n
		c.onBytes(c.n)
	}
	return n, err
}

// disallowUnknown holds the decode option flag of
// Decoder.DisallowUnknownFields, which go-json exports no option function
// for: it is read once from a Decoder, so each JSONL line is decoded with
// json.UnmarshalWithOption instead of a new Decoder (and its buffer).
var disallowUnknown json.DecodeOption

func init() {
	d := json.NewDecoder(strings.NewReader("{}"))
	d.DisallowUnknownFields()
	var v struct{}
	_ = d.DecodeWithOption(&v, func(o *json.DecodeOption) { disallowUnknown.Flags = o.Flags })
}

func strict(o *json.DecodeOption) { o.Flags |= disallowUnknown.Flags }

func readJSONL(br *bufio.Reader, name string, fn func(*Product) error) error {
	var long []byte
	for line := 1; ; line++ {
		b, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: gather it whole.
			long = append(long[:0], b...)
			for errors.Is(err, bufio.ErrBufferFull) {
				b, err = br.ReadSlice('\n')
				long = append(long, b...)
			}
			b = long
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("%s:%d: read: %w", name, line, err)
		}
		b = bytes.TrimRight(b, "\r\n")
		if len(bytes.TrimLeft(b, " \t\r")) > 0 {
			f := new(feedProduct)
			if derr := json.UnmarshalWithOption(b, f, strict); derr != nil {
				return fmt.Errorf("%s:%d: %w", name, line, describeJSON(derr, productFields, true))
			}
			p, aerr := f.product()
			if aerr != nil {
				return fmt.Errorf("%s:%d: %w", name, line, aerr)
			}
			if ferr := fn(p); ferr != nil {
				return fmt.Errorf("%s:%d: %w", name, line, ferr)
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

func readJSONArray(br *bufio.Reader, name string, fn func(*Product) error) error {
	lines := &lineTracker{r: br, line: 1}
	dec := json.NewDecoder(lines)
	dec.DisallowUnknownFields()
	tok, err := dec.Token()
	if err == io.EOF {
		return fmt.Errorf("%s: empty file: expected a JSON array of products", name)
	}
	if err != nil {
		return fmt.Errorf("%s:%d: %w", name, lines.lineAt(dec.InputOffset()), describeJSON(err, nil, false))
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return fmt.Errorf("%s: expected a JSON array of products, got %s", name, tokenKind(tok))
	}
	for i := 1; dec.More(); i++ {
		line := lines.lineAt(dec.InputOffset())
		f := new(feedProduct)
		if err := dec.Decode(f); err != nil {
			return fmt.Errorf("%s:%d: product %d: %w", name, line, i, describeJSON(err, productFields, false))
		}
		p, err := f.product()
		if err != nil {
			return fmt.Errorf("%s:%d: product %d: %w", name, line, i, err)
		}
		if err := fn(p); err != nil {
			return fmt.Errorf("%s:%d: product %d: %w", name, line, i, err)
		}
	}
	end := lines.lineAt(dec.InputOffset())
	if _, err := dec.Token(); err != nil {
		if err == io.EOF {
			err = errUnclosedArray
		}
		return fmt.Errorf("%s:%d: %w", name, end, describeJSON(err, nil, false))
	}
	end = lines.lineAt(dec.InputOffset())
	if tok, err := dec.Token(); err != io.EOF {
		what := "data"
		if err == nil {
			what = tokenKind(tok)
		}
		return fmt.Errorf("%s:%d: %s after the closing ] of the product array", name, end, what)
	}
	return nil
}

func tokenKind(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return "an object"
		}
		return fmt.Sprintf("%q", string(t))
	case string:
		return "a string"
	case float64, json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%v", tok)
}

// lineTracker passes reads through and keeps the bytes the JSON decoder
// may not have consumed yet, so the line of a product can be told from the
// decoder's input offset without keeping the file in memory.
type lineTracker struct {
	r     io.Reader
	buf   []byte // bytes from offset base on
	start int    // buf[:start] is already counted
	base  int64  // input offset of buf[start]
	line  int    // line of buf[start]
}

func (t *lineTracker) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if t.start > 0 && t.start >= len(t.buf)/2 {
		t.buf = append(t.buf[:0], t.buf[t.start:]...)
		t.start = 0
	}
	t.buf = append(t.buf, p[:n]...)
	return n, err
}

// lineAt returns the line of the first byte at or after off that is
// neither white space nor a comma, and forgets the bytes before off;
// offsets must not go backwards.
func (t *lineTracker) lineAt(off int64) int {
	skip := int(min(max(off-t.base, 0), int64(len(t.buf)-t.start)))
	t.line += bytes.Count(t.buf[t.start:t.start+skip], []byte{'\n'})
	t.start += skip
	t.base += int64(skip)
	line := t.line
	for _, c := range t.buf[t.start:] {
		switch c {
		case '\n':
			line++
		case ' ', '\t', '\r', ',':
		default:
			return line
		}
	}
	return line
}
