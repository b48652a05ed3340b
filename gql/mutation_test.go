package gql

import "testing"

func TestIsMutation(t *testing.T) {
	for _, tc := range []struct {
		body string
		want bool
	}{
		{`{"query":"mutation { revokeApiKey(id: \"k\") { id } }"}`, true},
		{`{"query":"mutation M { a } query Q { b }","operationName":"M"}`, true},
		{`{"query":"mutation M { a } query Q { b }","operationName":"Q"}`, false},
		{`{"query":"mutation M { a } query Q { b }"}`, false}, // ambiguous: refused where it arrived
		{`{"query":"{ auditLogs { totalCount } }"}`, false},
		{`{"query":"mutation {"}`, false},
		{`not json`, false},
		{``, false},
	} {
		if got := IsMutation([]byte(tc.body)); got != tc.want {
			t.Errorf("IsMutation(%s) = %v, want %v", tc.body, got, tc.want)
		}
	}
}
