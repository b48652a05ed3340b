package live

import (
	"bytes"
	"fmt"
	"io"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/store"
)

// Body is a batch of products or content items as a client sends it
// (the admin API's body, a GraphQL mutation's rows): decoded, checked
// and applied as one entry by PutProducts or PutContent.
type Body struct {
	// Format is the rows' format: JSON Lines, a JSON array or (products
	// only) CSV read through Mapping.
	Format  catalog.Format
	Mapping *catalog.CSVMapping
	// Data is read to its end; a reader that fails (a body over its
	// size) fails the write with its error, and nothing is applied.
	Data io.Reader
	// Partial (products only) makes each row change only the members it
	// names of the product its productNumber names (PatchProducts).
	Partial bool
	// AllowErrors leaves out the rows that fail and lists them in
	// Written.Rejected; without it the first fails the write, naming its
	// row, and nothing is applied.
	AllowErrors bool
}

// Written is what a write changed: its log position and its counts
// (products, or content items for content writes), the numbers a delete
// matched no product of, and the rows an AllowErrors body left out.
type Written struct {
	Seq                     uint64
	Added, Updated, Deleted int
	NotFound                []string
	Rejected                []RowError
}

// written is a's counts: products', or content items' when content.
func written(a store.Applied, content bool) Written {
	if content {
		return Written{Seq: a.Seq, Added: a.ContentAdded, Updated: a.ContentUpdated, Deleted: a.ContentDeleted}
	}
	return Written{Seq: a.Seq, Added: a.Added, Updated: a.Updated, Deleted: a.Deleted}
}

// PutProducts upserts body's products into website uuid in one entry
// (Apply), or with body.Partial changes the members each row names
// (PatchProducts). Rows are labelled as the import labels them: "body:3"
// in JSON Lines and CSV, "body: product 3" in an array.
func (l *Writer) PutProducts(uuid string, body Body) (Written, error) {
	if !body.Partial && !body.AllowErrors {
		return l.putProductStream(uuid, body)
	}
	raw, err := io.ReadAll(body.Data)
	if err != nil {
		return Written{}, err
	}
	var rows [][]byte
	var labels []string
	var cellErrs []RowError // CSV cells that do not convert
	if body.Format == catalog.FormatCSV {
		rows, labels, cellErrs, err = csvRows(raw, body.Mapping, body.Partial, body.AllowErrors)
	} else {
		rows, labels, err = splitRows(raw, body.Format, "products")
	}
	if err != nil {
		return Written{}, err
	}
	if len(rows) == 0 { // every CSV row refused: nothing to apply
		a, err := l.Apply(uuid, &store.Batch{})
		w := written(a, false)
		w.Rejected = cellErrs
		return w, err
	}
	if body.Partial {
		a, rejected, err := l.PatchProducts(uuid, rows, func(i int) string { return labels[i] }, body.AllowErrors)
		w := written(a, false)
		w.Rejected = append(cellErrs, rejected...)
		return w, err
	}
	// AllowErrors: the rows one by one (the import's reader stops at the
	// first bad row).
	var b store.Batch
	rejected, err := addRows(rows, labels, "products", body.AllowErrors, func(raw []byte) error {
		p, err := catalog.DecodeProduct(raw)
		if err == nil {
			err = p.Check()
		}
		if err != nil {
			return err
		}
		return b.PutProduct(p)
	})
	if err != nil {
		return Written{}, err
	}
	a, err := l.Apply(uuid, &b)
	w := written(a, false)
	w.Rejected = append(cellErrs, rejected...)
	return w, err
}

// putProductStream is PutProducts of a whole batch: read as a stream
// with the import's reader, which stops at the first bad row.
func (l *Writer) putProductStream(uuid string, body Body) (Written, error) {
	var b store.Batch
	n := 0
	data := &readFailure{r: body.Data}
	err := catalog.Read(data, catalog.ReadOptions{Format: body.Format, Mapping: body.Mapping, Name: "body"}, catalog.Checked(func(p *catalog.Product) error {
		n++
		return b.PutProduct(p)
	}))
	if err != nil {
		if data.err != nil {
			err = data.err // the body's own failure, rather than what the reader made of it
		}
		if e := engine.AsError(err); e.Kind == engine.KindTooLarge {
			return Written{}, err
		}
		return Written{}, engine.Invalid("products", "%v; nothing was applied", err)
	}
	if n == 0 {
		return Written{}, engine.Invalid("products", "the body holds no products")
	}
	a, err := l.Apply(uuid, &b)
	return written(a, false), err
}

// readFailure is r, keeping its first failure other than io.EOF.
type readFailure struct {
	r   io.Reader
	err error
}

func (f *readFailure) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err != nil && err != io.EOF && f.err == nil {
		f.err = err
	}
	return n, err
}

// PutContent upserts body's content items (each naming its kind) into
// website uuid in one entry; body.Partial is refused, since content
// items are sent whole.
func (l *Writer) PutContent(uuid string, body Body) (Written, error) {
	if body.Partial {
		return Written{}, engine.Invalid("partial", "partial updates take products only; send content items whole")
	}
	raw, err := io.ReadAll(body.Data)
	if err != nil {
		return Written{}, err
	}
	rows, labels, err := splitRows(raw, body.Format, "content")
	if err != nil {
		return Written{}, err
	}
	var b store.Batch
	rejected, err := addRows(rows, labels, "content", body.AllowErrors, func(raw []byte) error {
		c, err := catalog.DecodeContent(raw)
		if err != nil {
			return err
		}
		return b.PutContent(c)
	})
	if err != nil {
		return Written{}, err
	}
	a, err := l.Apply(uuid, &b)
	w := written(a, true)
	w.Rejected = rejected
	return w, err
}

// RemoveProducts is DeleteProducts answered as a Written.
func (l *Writer) RemoveProducts(uuid string, pns []string) (Written, error) {
	if len(pns) == 0 {
		return Written{}, engine.Invalid("productNumbers", "list at least one product number")
	}
	a, notFound, err := l.DeleteProducts(uuid, pns)
	w := written(a, false)
	w.NotFound = notFound
	return w, err
}

// RemoveProduct is DeleteProduct answered as a Written.
func (l *Writer) RemoveProduct(uuid, pn string) (Written, error) {
	a, err := l.DeleteProduct(uuid, pn)
	return written(a, false), err
}

// RemoveContent is DeleteContent answered as a Written (content counts).
func (l *Writer) RemoveContent(uuid string, kind catalog.ContentKind, id string) (Written, error) {
	a, err := l.DeleteContent(uuid, kind, id)
	return written(a, true), err
}

// ReplaceConfig is SetConfig answered as a Written (its position only).
func (l *Writer) ReplaceConfig(f *config.File) (Written, error) {
	a, err := l.SetConfig(f)
	return Written{Seq: a.Seq}, err
}

// addRows passes each row to add: with allowErrors the rows add refuses
// are listed and the rest kept; without, the first refusal is the
// write's error (field names the body's member) and nothing is applied.
func addRows(rows [][]byte, labels []string, field string, allowErrors bool, add func(raw []byte) error) ([]RowError, error) {
	var rejected []RowError
	for i, raw := range rows {
		if err := add(raw); err != nil {
			if !allowErrors {
				return nil, engine.Invalid(field, "%s: %v; nothing was applied", labels[i], err)
			}
			rejected = append(rejected, RowError{Row: labels[i], Message: err.Error()})
		}
	}
	return rejected, nil
}

// csvRows is a CSV body's records as JSON objects of the members they
// set (catalog.CSVObjects), labelled by line. A cell that does not
// convert refuses the batch, or with allowErrors leaves its row out and
// is listed.
func csvRows(body []byte, m *catalog.CSVMapping, partial, allowErrors bool) (rows [][]byte, labels []string, cellErrs []RowError, err error) {
	err = catalog.CSVObjects(bytes.NewReader(body), "body", m, partial, func(label string, obj []byte, rowErr error) error {
		if rowErr != nil {
			if !allowErrors {
				return fmt.Errorf("%s: %w", label, rowErr)
			}
			cellErrs = append(cellErrs, RowError{Row: label, Message: rowErr.Error()})
			return nil
		}
		rows, labels = append(rows, obj), append(labels, label)
		return nil
	})
	if err != nil {
		return nil, nil, nil, engine.Invalid("products", "%v; nothing was applied", err)
	}
	if len(rows) == 0 && len(cellErrs) == 0 {
		return nil, nil, nil, engine.Invalid("products", "the body holds no products")
	}
	return rows, labels, cellErrs, nil
}

// splitRows cuts a body into its objects, each labelled as the import
// labels rows: "body:LINE" for JSON Lines, "body: product N" in an array
// (field, "products" or "content", names the body in errors).
func splitRows(body []byte, format catalog.Format, field string) (rows [][]byte, labels []string, err error) {
	if format == catalog.FormatJSON {
		var objects []json.RawMessage
		if err := json.Unmarshal(body, &objects); err != nil {
			return nil, nil, engine.Invalid(field, "body: expected a JSON array of objects: %v", err)
		}
		for i, o := range objects {
			rows = append(rows, o)
			labels = append(labels, fmt.Sprintf("body: product %d", i+1))
		}
	} else {
		for i, line := range bytes.Split(body, []byte("\n")) {
			if len(bytes.TrimSpace(line)) > 0 {
				rows = append(rows, line)
				labels = append(labels, fmt.Sprintf("body:%d", i+1))
			}
		}
	}
	if len(rows) == 0 {
		return nil, nil, engine.Invalid(field, "the body holds no %s", field)
	}
	return rows, labels, nil
}
