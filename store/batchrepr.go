package store

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/config"
)

// A batch's replicated form: what a writer publishes to a replicated log
// (package cluster) and every node decodes and applies with Apply, so
// that the same entries make the same stored state on every node. It is
// a JSON object holding everything the batch holds, its events and audit
// entries included (a log entry of the store keeps those apart):
//
//	{"v":1,"website":"…","productNumbers":[…],"products":[…],"stored":true,
//	 "deletes":[…],"contentKeys":[…],"content":[…],"contentDeletes":[…],
//	 "config":{…},"events":[…],"keyIds":[…],"keys":[…],"keyRemovals":[…],"audit":[…],
//	 "secret":"<base64>"}
//
// Members without a value are left out. Products, content items, events
// and keys are copied as their JSON bytes, so a replica stores the very
// bytes the writer stored. A batch's position is not part of it: the log
// gives it.

// batchVersion is the replicated form's version, "v".
const batchVersion = 1

// ErrCorruptBatch marks bytes DecodeBatch cannot read back as a batch;
// the wrapping error names the check that failed.
var ErrCorruptBatch = errors.New("corrupt batch")

// wireBatch is the replicated form's members.
type wireBatch struct {
	V              int               `json:"v"`
	Website        string            `json:"website,omitempty"`
	ProductNumbers []string          `json:"productNumbers,omitempty"`
	Products       []json.RawMessage `json:"products,omitempty"`
	Stored         bool              `json:"stored,omitempty"`
	Columns        bool              `json:"columns,omitempty"`
	Deletes        []string          `json:"deletes,omitempty"`
	ContentKeys    []string          `json:"contentKeys,omitempty"`
	Content        []json.RawMessage `json:"content,omitempty"`
	ContentDeletes []string          `json:"contentDeletes,omitempty"`
	Config         *config.File      `json:"config,omitempty"`
	Events         []json.RawMessage `json:"events,omitempty"`
	KeyIDs         []string          `json:"keyIds,omitempty"`
	Keys           []json.RawMessage `json:"keys,omitempty"`
	KeyRemovals    []string          `json:"keyRemovals,omitempty"`
	Audit          []AuditEntry      `json:"audit,omitempty"`
	Secret         []byte            `json:"secret,omitempty"` // base64
}

// AppendBatch appends b's replicated form to dst. Its raw members
// (products, content, events, keys) are written as they are, not
// re-encoded.
func AppendBatch(dst []byte, b *Batch) ([]byte, error) {
	buf := bytes.NewBuffer(dst)
	size := 64 + len(b.Website) + arrayLen(b.products) + arrayLen(b.content) + arrayLen(b.events) + arrayLen(b.keys)
	for _, pn := range b.pkeys {
		size += len(pn) + 3
	}
	buf.Grow(size)
	fmt.Fprintf(buf, `{"v":%d`, batchVersion)
	head := wireBatch{Website: b.Website, ProductNumbers: b.pkeys, Stored: b.stored, Columns: b.columns, Deletes: b.deletes,
		ContentKeys: b.ckeys, ContentDeletes: b.cdeletes, Config: b.config, KeyIDs: b.keyIDs,
		KeyRemovals: b.keyRemovals, Audit: b.audit, Secret: b.secret}
	if err := appendMembers(buf, &head); err != nil {
		return dst, err
	}
	writeRaw(buf, "products", b.products)
	writeRaw(buf, "content", b.content)
	writeRaw(buf, "events", b.events)
	writeRaw(buf, "keys", b.keys)
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// appendMembers writes head's members that are set, except "v", each
// after a comma.
func appendMembers(buf *bytes.Buffer, head *wireBatch) error {
	data, err := json.Marshal(head)
	if err != nil {
		return fmt.Errorf("encode batch: %w", err)
	}
	// data is {"v":0,…}: keep what follows "v".
	rest, ok := bytes.CutPrefix(data, []byte(`{"v":0`))
	if !ok {
		return fmt.Errorf("encode batch: unexpected head %.20q", data)
	}
	buf.Write(rest[:len(rest)-1])
	return nil
}

// DecodeBatch reads back a batch AppendBatch wrote. It refuses, with
// ErrCorruptBatch and the check that failed, bytes that are not one
// JSON object, another version, and lists that do not pair up (product
// numbers and products, content keys and content, key ids and keys).
// The batch keeps no reference to src.
func DecodeBatch(src []byte) (*Batch, error) {
	var w wireBatch
	if err := json.Unmarshal(src, &w); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorruptBatch, err)
	}
	switch {
	case w.V != batchVersion:
		return nil, fmt.Errorf("%w: version %d, and this Aisle reads version %d", ErrCorruptBatch, w.V, batchVersion)
	case len(w.ProductNumbers) != len(w.Products):
		return nil, fmt.Errorf("%w: %d product numbers for %d products", ErrCorruptBatch, len(w.ProductNumbers), len(w.Products))
	case len(w.ContentKeys) != len(w.Content):
		return nil, fmt.Errorf("%w: %d content keys for %d content items", ErrCorruptBatch, len(w.ContentKeys), len(w.Content))
	case len(w.KeyIDs) != len(w.Keys):
		return nil, fmt.Errorf("%w: %d key ids for %d keys", ErrCorruptBatch, len(w.KeyIDs), len(w.Keys))
	case w.Columns && (len(w.Products) == 0 || !w.Stored):
		return nil, fmt.Errorf("%w: a column write of %d products, stored %t", ErrCorruptBatch, len(w.Products), w.Stored)
	case w.Secret != nil && len(w.Secret) != 32:
		return nil, fmt.Errorf("%w: a secret of %d bytes, not 32", ErrCorruptBatch, len(w.Secret))
	}
	return &Batch{Website: w.Website, pkeys: w.ProductNumbers, products: raws(w.Products), stored: w.Stored, columns: w.Columns,
		deletes: w.Deletes, ckeys: w.ContentKeys, content: raws(w.Content), cdeletes: w.ContentDeletes,
		config: w.Config, events: raws(w.Events), keyIDs: w.KeyIDs, keys: raws(w.Keys),
		keyRemovals: w.KeyRemovals, audit: w.Audit, secret: w.Secret}, nil
}

// raws are ms as byte slices.
func raws(ms []json.RawMessage) [][]byte {
	if len(ms) == 0 {
		return nil
	}
	out := make([][]byte, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

// StampAuditTimes sets the time of every audit entry of the batch that
// has none to now: a writer does it before it publishes the batch, so
// that every node records the entries at the same time.
func (b *Batch) StampAuditTimes(now time.Time) {
	for i := range b.audit {
		if b.audit[i].CreatedAt.IsZero() {
			b.audit[i].CreatedAt = now
		}
	}
}
