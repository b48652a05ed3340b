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

// Format of a feed file.
type Format string

// The feed formats.
const (
	FormatJSONL Format = "jsonl"
	FormatJSON  Format = "json"
	FormatCSV   Format = "csv"
)

// DetectFormat picks the reader from a file's name and first bytes: a .json
// file whose first value is an object (not an array) is read as JSONL.
func DetectFormat(name string, head []byte) (Format, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".jsonl", ".ndjson":
		return FormatJSONL, nil
	case ".json":
		if t := bytes.TrimLeft(head, " \t\r\n\ufeff"); len(t) > 0 && t[0] == '{' {
			return FormatJSONL, nil
		}
		return FormatJSON, nil
	case ".csv":
		return FormatCSV, nil
	}
	return "", fmt.Errorf("%s: unknown feed format: use .jsonl, .ndjson, .json or .csv", name)
}

// ReadOptions configures Read.
type ReadOptions struct {
	Format  Format
	Mapping *CSVMapping // required for CSV
	Name    string      // file name for messages
}

// Read streams products from r to fn in file order and stops at the first
// error, its own or fn's. fn must not keep the product after returning.
func Read(r io.Reader, opt ReadOptions, fn func(*Product) error) error {
	name := opt.Name
	if name == "" {
		name = "feed"
	}
	switch opt.Format {
	case FormatJSONL:
		return readJSONL(r, name, fn)
	case FormatJSON:
		return readJSONArray(r, name, fn)
	case FormatCSV:
		if opt.Mapping == nil {
			return fmt.Errorf("%s: a CSV feed needs a column mapping: pass --mapping NAME or FILE", name)
		}
		return readCSV(r, name, opt.Mapping, fn)
	}
	return fmt.Errorf("%s: unknown format %q", name, opt.Format)
}

// ReadFile opens, detects and reads a feed file, reporting the bytes read
// so far to onBytes (may be nil) at least every MiB and at the end.
func ReadFile(path string, mapping *CSVMapping, onBytes func(n int64), fn func(*Product) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open feed: %w", err)
	}
	defer f.Close()
	cr := &countingReader{r: f, onBytes: onBytes}
	br := bufio.NewReaderSize(cr, 1<<20)
	head, _ := br.Peek(512)
	format, err := DetectFormat(path, head)
	if err != nil {
		return err
	}
	if format == FormatCSV && mapping == nil {
		return fmt.Errorf("%s: a CSV feed needs a column mapping: pass --mapping NAME or FILE (built in: %s)", path, strings.Join(builtinNames(), ", "))
	}
	err = Read(br, ReadOptions{Format: format, Mapping: mapping, Name: filepath.Base(path)}, fn)
	if onBytes != nil {
		onBytes(cr.n)
	}
	return err
}

type countingReader struct {
	r       io.Reader
	n, last int64
	onBytes func(int64)
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.onBytes != nil && c.n-c.last >= 1<<20 {
		c.last = c.n
		c.onBytes(c.n)
	}
	return n, err
}

func readJSONL(r io.Reader, name string, fn func(*Product) error) error {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 1<<20)
	}
	var p Product
	line := 0
	for {
		b, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: gather it whole.
			long := append([]byte(nil), b...)
			for errors.Is(err, bufio.ErrBufferFull) {
				b, err = br.ReadSlice('\n')
				long = append(long, b...)
			}
			b = long
		}
		if len(b) > 0 {
			line++
			if t := bytes.TrimSpace(b); len(t) > 0 {
				p = Product{}
				if derr := decodeStrict(t, &p); derr != nil {
					return fmt.Errorf("%s:%d: %w", name, line, derr)
				}
				if ferr := fn(&p); ferr != nil {
					return fmt.Errorf("%s:%d: %w", name, line, ferr)
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s:%d: read: %w", name, line, err)
		}
	}
}

func readJSONArray(r io.Reader, name string, fn func(*Product) error) error {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("%s: %w", name, describeJSON(err))
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return fmt.Errorf("%s: expected a JSON array of products", name)
	}
	var p Product
	for i := 1; dec.More(); i++ {
		p = Product{}
		if err := dec.Decode(&p); err != nil {
			return fmt.Errorf("%s: product %d: %w", name, i, describeJSON(err))
		}
		if err := fn(&p); err != nil {
			return fmt.Errorf("%s: product %d: %w", name, i, err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("%s: %w", name, describeJSON(err))
	}
	return nil
}

func decodeStrict(b []byte, p *Product) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(p); err != nil {
		return describeJSON(err)
	}
	if dec.More() {
		return errors.New("more than one JSON value on the line")
	}
	return nil
}

// describeJSON turns decoder errors into "field "x": expected …" messages.
func describeJSON(err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = te.Struct
		}
		return fmt.Errorf("field %q: expected %s, got %s", field, te.Type.String(), te.Value)
	case errors.As(err, &se):
		return fmt.Errorf("malformed JSON at byte %d: %s", se.Offset, strings.TrimPrefix(se.Error(), "json: "))
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if i := strings.Index(msg, "unknown field "); i >= 0 {
		return fmt.Errorf("unknown field %s", msg[i+len("unknown field "):])
	}
	return errors.New("malformed JSON: " + msg)
}
