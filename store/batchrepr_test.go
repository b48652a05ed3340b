package store

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/internal/golden"
)

// fullBatch is a batch holding one of everything a batch can hold.
func fullBatch(t testing.TB) *Batch {
	t.Helper()
	b := &Batch{Website: testSite}
	if err := b.PutProduct(&catalog.Product{ProductNumber: "P1", Title: "Cordless drill", Price: 99.5}); err != nil {
		t.Fatal(err)
	}
	b.PutProductJSON("p2", []byte(`{"productNumber":"p2","title":"Hammer \u00e9"}`))
	b.MarkColumnWrite()
	b.DeleteProduct("P9")
	if err := b.PutContent(&catalog.Content{Kind: catalog.KindBrand, ID: "b1", Title: "Brand"}); err != nil {
		t.Fatal(err)
	}
	b.DeleteContent(catalog.KindBrand, "b0")
	b.SetConfig(config.Default(testSite))
	b.AddEvent([]byte(`{"kind":"click","productNumber":"P1"}`))
	if err := b.PutKey(&access.Key{ID: "k1", Name: "feed", Hash: []byte{1, 2}, Created: time.Date(2026, 11, 29, 2, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	b.RemoveKey("k0")
	b.SetSecret(bytes.Repeat([]byte{7}, 32))
	b.Audit(AuditEntry{SourceID: "P1", ResourceType: "PRODUCT", WebsiteUUID: testSite,
		CreatedAt: time.Date(2026, 11, 29, 3, 0, 0, 0, time.UTC)})
	return b
}

// TestBatchReplicatedForm: the replicated form of a batch holding one of
// everything is testdata/batch/full.json, and decoding it gives a batch
// whose form is the same bytes (raw members copied as they are).
func TestBatchReplicatedForm(t *testing.T) {
	b := fullBatch(t)
	data, err := AppendBatch(nil, b)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "batch/full.json", data)
	back, err := DecodeBatch(data)
	if err != nil {
		t.Fatal(err)
	}
	again, err := AppendBatch([]byte("prefix:"), back)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := bytes.CutPrefix(again, []byte("prefix:")); !ok || !bytes.Equal(got, data) {
		t.Fatalf("decoded and encoded again:\n%s\nwant\n%s", again, data)
	}
	// The decoded batch does not share src.
	for i := range data {
		data[i] = 'x'
	}
	if n, d := back.ProductPuts(); n[0] != "P1" || !bytes.HasPrefix(d[0], []byte(`{"productNumber":"P1"`)) {
		t.Fatalf("decoded batch changed with its source: %q %q", n, d)
	}
}

// TestReplicatedStoresAgree: a batch applied on one store and its
// replicated form, decoded, applied on another give both the same
// products, content, configuration, keys and audit entries.
func TestReplicatedStoresAgree(t *testing.T) {
	writer, replica := openWithConfig(t, t.TempDir()), openWithConfig(t, t.TempDir())
	defer writer.Close()
	defer replica.Close()
	b := fullBatch(t)
	b.StampAuditTimes(time.Now())
	data, err := AppendBatch(nil, b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := writer.Apply(b, true); err != nil {
		t.Fatal(err)
	}
	back, err := DecodeBatch(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := replica.Apply(back, true); err != nil {
		t.Fatal(err)
	}
	for _, prefix := range []string{prefixProduct, prefixContent, keyConfig, keySecret, prefixAPIKey, prefixEvents, prefixAudit} {
		w, r := dump(t, writer, prefix), dump(t, replica, prefix)
		if w == "" && prefix != prefixEvents {
			t.Errorf("%s: the writer stored nothing", prefix)
		}
		if w != r {
			t.Errorf("%s differs:\nwriter  %s\nreplica %s", prefix, w, r)
		}
	}
}

// dump is every key under prefix and its value, one per line.
func dump(t *testing.T, st *Store, prefix string) string {
	t.Helper()
	var b bytes.Buffer
	if err := st.scan(prefix, func(k, v []byte) error {
		b.Write(k)
		b.WriteByte('=')
		b.Write(v)
		b.WriteByte('\n')
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestDecodeBatchRefuses: bytes that are not a batch's replicated form
// are refused with ErrCorruptBatch, naming the check.
func TestDecodeBatchRefuses(t *testing.T) {
	for _, tc := range []struct{ src, says string }{
		{``, ""},
		{`[]`, ""},
		{`{"v":2}`, "version 2"},
		{`{}`, "version 0"},
		{`{"v":1,"productNumbers":["a"]}`, "1 product numbers for 0 products"},
		{`{"v":1,"contentKeys":["brand/a"],"content":[{},{}]}`, "1 content keys for 2 content items"},
		{`{"v":1,"keys":[{}]}`, "0 key ids for 1 keys"},
		{`{"v":1,"products":[1,}`, ""},
		{`{"v":1,"secret":"AQI="}`, "a secret of 2 bytes"},
		{`{"v":1,"columns":true,"stored":true}`, "a column write of 0 products"},
		{`{"v":1,"productNumbers":["a"],"products":[{}],"columns":true}`, "a column write of 1 products, stored false"},
	} {
		_, err := DecodeBatch([]byte(tc.src))
		if !errors.Is(err, ErrCorruptBatch) || !bytes.Contains([]byte(err.Error()), []byte(tc.says)) {
			t.Errorf("DecodeBatch(%q) = %v, want ErrCorruptBatch saying %q", tc.src, err, tc.says)
		}
	}
}

// FuzzDecodeBatch: any bytes either decode to a batch whose replicated
// form decodes to the same form again, or are refused as corrupt; never
// a panic.
func FuzzDecodeBatch(f *testing.F) {
	full, err := AppendBatch(nil, fullBatch(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(full)
	f.Add([]byte(`{"v":1}`))
	f.Add([]byte(`{"v":1,"productNumbers":["a"],"products":[{}]}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		b, err := DecodeBatch(src)
		if err != nil {
			if !errors.Is(err, ErrCorruptBatch) {
				t.Fatalf("%q: %v is not ErrCorruptBatch", src, err)
			}
			return
		}
		once, err := AppendBatch(nil, b)
		if err != nil {
			return // a configuration that does not encode (NaN weights)
		}
		back, err := DecodeBatch(once)
		if err != nil {
			t.Fatalf("%q encodes to %q, which does not decode: %v", src, once, err)
		}
		twice, err := AppendBatch(nil, back)
		if err != nil || !bytes.Equal(once, twice) {
			t.Fatalf("%q: encoded %q, then %q (%v)", src, once, twice, err)
		}
	})
}
