package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/internal/golden"
)

// TestInvalidConfigRefusedAndNothingStored: docs/configuration.md,
// "Unknown members are errors, so a misspelt setting is reported rather
// than ignored", and the members' rules (field weights 0–100, exactly one
// live version, a facet type that fits the field type). aisle import and
// aisle serve refuse such a file before touching the data directory; the
// messages are the golden file.
func TestInvalidConfigRefusedAndNothingStored(t *testing.T) {
	valid := strings.Replace(shopConfig, `"key":"shop"`, `"key":"valid"`, 1)
	bad := []struct{ name, doc string }{
		{"misspelt member", strings.Replace(valid, `"searchConfigs"`, `"serchConfigs"`, 1)},
		{"field weight above 100", strings.Replace(valid, `"weight":5`, `"weight":101`, 1)},
		{"field weight below 0", strings.Replace(valid, `"weight":3`, `"weight":-1`, 1)},
		{"two live versions", strings.Replace(valid, `"versions":[{"id":1,"status":"live",`,
			`"versions":[{"id":2,"status":"live","fields":[{"name":"title","weight":1}]},{"id":1,"status":"live",`, 1)},
		{"no live version", strings.Replace(valid, `"status":"live"`, `"status":"draft"`, 1)},
		{"facet type unfit for the field", strings.Replace(valid, `"type":"LIST"`, `"type":"RANGE"`, 1)},
		{"malformed JSON", valid[:len(valid)-3]},
		{"not a file", ""},
	}
	for _, tc := range bad {
		if !strings.Contains(tc.name, "file") && tc.doc == valid {
			t.Fatalf("%s: the replacement did not apply", tc.name)
		}
	}
	dir := t.TempDir()
	shop := shopDir(t, "--config", writeFile(t, dir, "shop.json", shopConfig))
	feed := writeFile(t, dir, "feed.jsonl", feedLines)
	var report strings.Builder
	for i, tc := range bad {
		path := filepath.Join(dir, "missing.json")
		if tc.doc != "" {
			path = writeFile(t, dir, fmt.Sprintf("bad%d.json", i), tc.doc)
		}
		for _, cmd := range []string{"import", "serve"} {
			data := shop
			args := []string{"serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k", "--config", path}
			if cmd == "import" {
				data = filepath.Join(t.TempDir(), "new")
				args = []string{"import", "--data", data, "--quiet", "--config", path, feed}
			}
			before := storedState(t, data)
			_, err := runCLI(args...)
			if err == nil {
				t.Errorf("%s --config with %s: accepted", cmd, tc.name)
				continue
			}
			msg, _, _ := strings.Cut(err.Error(), "\nstderr:")
			fmt.Fprintf(&report, "%s, %s:\n  %s\n", cmd, tc.name, strings.ReplaceAll(msg, dir, "DIR"))
			if after := storedState(t, data); after != before {
				t.Errorf("%s --config with %s changed the directory:\nbefore:\n%s\nafter:\n%s", cmd, tc.name, before, after)
			}
		}
	}
	golden.Check(t, "invalid_config_errors.txt", []byte(report.String()))
}
