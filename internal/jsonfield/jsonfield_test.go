package jsonfield

import (
	"errors"
	"reflect"
	"testing"

	"github.com/goccy/go-json"
)

type strictBool bool

func (b *strictBool) UnmarshalJSON(data []byte) error {
	if string(data) != "true" && string(data) != "false" {
		return TypeError(data, reflect.TypeFor[bool]())
	}
	*b = string(data) == "true"
	return nil
}

type inner struct {
	Flag strictBool `json:"flag"`
}

type outer struct {
	Products *inner  `json:"products"`
	Lines    []inner `json:"lines"`
	Count    int     `json:"count"`
}

// TestFill: a member's own type error, met by goccy/go-json with no
// path, comes out as goccy/go-json's type error naming the member.
func TestFill(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{`{"products":{"flag":"yes"}}`, "products.flag"},
		{`{"lines":[{"flag":true},{"flag":1}]}`, "lines.flag"},
	} {
		var v outer
		err := Fill(json.Unmarshal([]byte(tc.data), &v), []byte(tc.data), &v)
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) || te.Field != tc.want || te.Type != reflect.TypeFor[bool]() {
			t.Errorf("Fill for %s = %v (%+v), want a type error naming %q", tc.data, err, te, tc.want)
		}
	}
	// Any other error is returned as it is.
	var v outer
	err := json.Unmarshal([]byte(`{"count":"5"}`), &v)
	if got := Fill(err, []byte(`{"count":"5"}`), &v); got != err {
		t.Errorf("Fill changed goccy's own error %v into %v", err, got)
	}
	if got := Fill(nil, nil, &v); got != nil {
		t.Errorf("Fill(nil) = %v", got)
	}
}
