package gql_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/internal/golden"
)

// TestRequests sends requests the endpoint must refuse, or take in each
// of its forms, and keeps every answer's status and body in
// testdata/requests.golden: the errors' messages, paths and codes are
// the contract.
func TestRequests(t *testing.T) {
	s := twoShops(t)
	deep := "{ websites " + strings.Repeat("{ __typename ", 0) + "{ uuid } }"
	nest := "query { __schema { types { fields { type " + strings.Repeat("{ ofType ", 14) + "{ name }" + strings.Repeat(" }", 14) + " } } } }"
	alias := "query {"
	for i := range 210 {
		alias += fmt.Sprintf(" a%d: auditLogs(first: 100) { edges { node { id } } }", i)
	}
	alias += " }"
	for _, c := range []struct {
		name, method, ctype, key, auth, body string
	}{
		{name: "no key", method: "POST", ctype: "application/json", body: `{"query":"{ websites { uuid } }"}`},
		{name: "a key no one has", method: "POST", ctype: "application/json", key: "aisle_0123456789abcdef_00", body: `{"query":"{ websites { uuid } }"}`},
		{name: "the key as a bearer token", method: "POST", ctype: "application/json", auth: operator, body: `{"query":"{ websites { uuid } }"}`},
		{name: "text/plain, as a browser sends it without a preflight", method: "POST", ctype: "text/plain;charset=UTF-8", key: operator, body: `{"query":"{ websites { name } }"}`},
		{name: "a GET query", method: "GET", key: operator, body: "query=" + url.QueryEscape("query Names { websites { name } }") + "&operationName=Names"},
		{name: "a GET mutation", method: "GET", key: operator, body: "query=" + url.QueryEscape(`mutation { revokeApiKey(id: "x") { id } }`)},
		{name: "a body that is not JSON", method: "POST", ctype: "application/json", key: operator, body: `{"query": `},
		{name: "a misspelt member", method: "POST", ctype: "application/json", key: operator, body: `{"qurey":"{ websites { uuid } }"}`},
		{name: "no query", method: "POST", ctype: "application/json", key: operator, body: `{"variables":{}}`},
		{name: "form data", method: "POST", ctype: "application/x-www-form-urlencoded", key: operator, body: `query=x`},
		{name: "PUT", method: "PUT", ctype: "application/json", key: operator, body: `{"query":"{ websites { uuid } }"}`},
		{name: "a syntax error", method: "POST", ctype: "application/json", key: operator, body: `{"query":"{ websites { uuid }"}`},
		{name: "an unknown field", method: "POST", ctype: "application/json", key: operator, body: `{"query":"{ websites { uuid colour } }"}`},
		{name: "two operations, none named", method: "POST", ctype: "application/json", key: operator, body: `{"query":"query A { websites { uuid } } query B { websites { name } }"}`},
		{name: "an operation that is not there", method: "POST", ctype: "application/json", key: operator, body: `{"query":"query A { websites { uuid } }","operationName":"C"}`},
		{name: "a variable of the wrong type", method: "POST", ctype: "application/json", key: operator, body: `{"query":"query ($n: Int) { auditLogs(first: $n) { edges { cursor } } }","variables":{"n":"ten"}}`},
		{name: "a variable without a type (graphql-go would panic)", method: "POST", ctype: "application/json", key: operator, body: `{"query":"query ($n:) { websites { uuid } }"}`},
		{name: "an Int variable that is no integer (graphql-go would read 2)", method: "POST", ctype: "application/json", key: operator, body: `{"query":"query ($n: Int) { auditLogs(first: $n) { edges { cursor } } }","variables":{"n":2.5}}`},
		{name: "a page past 100", method: "POST", ctype: "application/json", key: operator, body: `{"query":"{ auditLogs(first: 101) { edges { cursor } } }"}`},
		{name: "a malformed instant", method: "POST", ctype: "application/json", key: operator, body: `{"query":"{ auditLogs(filter: {createdAtBefore: \"yesterday\"}) { edges { cursor } } }"}`},
		{name: "a keypoint that is not a boolean", method: "POST", ctype: "application/json", key: operator, body: `{"query":"{ auditLogs(filter: {keypoint: \"yes\"}) { edges { cursor } } }"}`},
		{name: "a resource type that is not one", method: "POST", ctype: "application/json", key: operator, body: `{"query":"{ auditLogs(filter: {resourceType: \"SHOE\"}) { edges { cursor } } }"}`},
		{name: "nested past the bound", method: "POST", ctype: "application/json", key: operator, body: mustJSON(map[string]string{"query": nest})},
		{name: "aliases past the cost bound", method: "POST", ctype: "application/json", key: operator, body: mustJSON(map[string]string{"query": alias})},
		{name: "within the bounds", method: "POST", ctype: "application/json", key: operator, body: mustJSON(map[string]string{"query": deep})},
		{name: "a body past the cap", method: "POST", ctype: "application/json", key: operator, body: `{"query":"` + strings.Repeat(" ", 300<<10) + `{ websites { uuid } }"}`},
	} {
		var req *http.Request
		var err error
		u := s.url + "/graphql"
		q := url.Values{}
		if c.key != "" {
			q.Set("apiKey", c.key)
		}
		if c.method == "GET" {
			req, err = http.NewRequest("GET", u+"?"+c.body+"&"+q.Encode(), nil)
		} else {
			req, err = http.NewRequest(c.method, u+"?"+q.Encode(), strings.NewReader(c.body))
			req.Header.Set("Content-Type", c.ctype)
		}
		if err != nil {
			t.Fatal(err)
		}
		if c.auth != "" {
			req.Header.Set("Authorization", "Bearer "+c.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		a := decodeAnswer(t, resp)
		var pretty bytes.Buffer
		if err := jsonIndent(&pretty, a.Raw); err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprintf("### %s\n%d\n%s\n", c.name, a.Status, pretty.String())
		t.Run(c.name, func(t *testing.T) {
			if a.Status == 200 && strings.Contains(c.name, "past") && a.code() == "" {
				t.Errorf("a request past a bound was run: %s", a.Raw)
			}
		})
		allGot.WriteString(got)
	}
	golden.Check(t, "requests.golden", []byte(allGot.String()))
}

var allGot strings.Builder

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// jsonIndent indents a JSON document for a golden file.
func jsonIndent(dst *bytes.Buffer, raw string) error {
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		return err
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	dst.Write(b)
	return nil
}
