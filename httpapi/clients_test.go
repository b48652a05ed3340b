package httpapi

import (
	"bytes"
	stdjson "encoding/json"
	"os"
	"testing"
)

// tolerance is one case of testdata/clients/tolerances.json: a body as
// real clients of the service the spec describes write it, and the
// canonical body it means.
type tolerance struct {
	Name      string             `json:"name"`
	Path      string             `json:"path"`
	Loose     stdjson.RawMessage `json:"loose"`
	Canonical stdjson.RawMessage `json:"canonical"`
}

// TestRealClientsTolerances: each looser shape real clients send
// (docs/decisions.md, "Real clients' requests") is taken, and answers
// exactly what its canonical form answers, byte for byte.
func TestRealClientsTolerances(t *testing.T) {
	url, _ := demoURLs(t)
	raw, err := os.ReadFile("testdata/clients/tolerances.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []tolerance
	if err := stdjson.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			st, _, want := send(t, "POST", url+tc.Path, "application/json", string(tc.Canonical))
			if st != 200 {
				t.Fatalf("canonical body: status %d: %s", st, want)
			}
			st, _, got := send(t, "POST", url+tc.Path, "text/plain", string(tc.Loose))
			if st != 200 {
				t.Fatalf("loose body: status %d: %s", st, got)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("loose body answers\n%s\nwant the canonical body's\n%s", got, want)
			}
			// Equal answers say something only when they answer products.
			if bytes.Contains(want, []byte(`"success":false`)) {
				t.Errorf("the canonical body fails: %s", want)
			}
			for _, empty := range []string{`"products":[]`, `"result":[]`, `"results":[]`} {
				if bytes.Contains(want, []byte(empty)) {
					t.Errorf("the canonical body answers no products: %s", want)
				}
			}
		})
	}
}
