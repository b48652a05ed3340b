package main

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var secretRE = regexp.MustCompile(`aisle_([0-9a-f]{16})_[0-9a-f]{64}`)

// TestKeysCommand: aisle keys create, list and revoke on a stopped
// server's directory; the key made there is taken by the served admin
// API and GraphQL, the revoked one refused; the secret is printed once
// and never listed.
func TestKeysCommand(t *testing.T) {
	dir := t.TempDir()
	feed := filepath.Join(dir, "feed.jsonl")
	if err := os.WriteFile(feed, []byte(`{"productNumber":"K1","title":"Kite"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "shop")
	mustRun(t, "import", "--data", data, "--quiet", "--website", shopSite, feed)

	out := mustRun(t, "keys", "create", "--data", data, "--name", "ci deploy", "--scopes", "admin", "--website", shopSite)
	m := secretRE.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("create printed no secret:\n%s", out)
	}
	secret, id := m[0], m[1]
	out = mustRun(t, "keys", "create", "--data", data, "--name", "auditors", "--scopes", "audit", "--company", "acme")
	other := secretRE.FindStringSubmatch(out)[1]
	list := mustRun(t, "keys", "list", "--data", data)
	if !strings.Contains(list, id) || !strings.Contains(list, other) || !strings.Contains(list, "ci deploy") || secretRE.MatchString(list) {
		t.Errorf("list:\n%s", list)
	}
	for _, bad := range [][]string{
		{"keys", "create", "--data", data, "--name", "x", "--scopes", "root"},
		{"keys", "create", "--data", data, "--name", "x", "--website", "00000000-0000-4000-8000-0000000000ff"},
		{"keys", "create", "--data", data, "--scopes", "admin"},
		{"keys", "revoke", "--data", data, "nope"},
	} {
		if _, err := runCLI(bad...); err == nil {
			t.Errorf("%v succeeded", bad)
		}
	}

	s := startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k")
	post := func(key string) int {
		req, _ := http.NewRequest("POST", "http://"+s.addr+"/admin/v1/websites/"+shopSite+"/products", strings.NewReader(`[{"productNumber":"K2","title":"Kite 2"}]`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if st := post(secret); st != 200 {
		t.Errorf("the key made offline writes: %d", st)
	}
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	if out := mustRun(t, "keys", "revoke", "--data", data, id); !strings.Contains(out, "revoked") {
		t.Errorf("revoke printed %q", out)
	}
	s = startCLI(t, "serve", "--data", data, "--addr", "127.0.0.1:0", "--admin-key", "k")
	defer s.stop() //nolint:errcheck // the test is over
	if st := post(secret); st != 401 {
		t.Errorf("the revoked key: %d, want 401", st)
	}
}
