package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/catalog"
)

// TestOpenUnreadable: a table cut short or deleted fails Open with
// ErrUnreadable, its reason on one line naming each table; the directory
// opens again once the table is back.
func TestOpenUnreadable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	w, err := st.NewBulkWriter(testSite)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2000 {
		if err := w.PutProduct(&catalog.Product{ProductNumber: fmt.Sprintf("P%05d", i), Title: "kite"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	tables, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	if len(tables) == 0 {
		t.Fatal("no table written")
	}
	keep := filepath.Join(t.TempDir(), "kept")
	if err := os.Rename(tables[0], keep); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		damage func() error
	}{
		{"deleted", func() error { return nil }},
		{"cut short", func() error {
			raw, err := os.ReadFile(keep)
			if err != nil {
				return err
			}
			return os.WriteFile(tables[0], raw[:len(raw)/2], 0o644)
		}},
	} {
		if err := tc.damage(); err != nil {
			t.Fatal(err)
		}
		_, err := Open(dir)
		var u *UnreadableError
		if !errors.Is(err, ErrUnreadable) || !errors.As(err, &u) {
			t.Fatalf("%s table: Open: %v, want ErrUnreadable", tc.name, err)
		}
		if r := u.Reason(); strings.Contains(r, "\n") || !strings.Contains(r, strings.TrimSuffix(filepath.Base(tables[0]), ".sst")) {
			t.Errorf("%s table: reason %q: want one line naming the table", tc.name, r)
		}
	}
	if err := os.Rename(keep, tables[0]); err != nil {
		t.Fatal(err)
	}
	st, err = Open(dir)
	if err != nil {
		t.Fatalf("the table back: %v", err)
	}
	st.Close()
}
