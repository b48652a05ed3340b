package jsonscan

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSkipString: the end of a JSON string, for strings of every length
// around where SkipString stops reading byte by byte (24), with escaped
// quotes and runs of backslashes at each position, against a decoder.
func TestSkipString(t *testing.T) {
	pieces := []string{`a`, `\"`, `\\`, `\\\"`, `é`, `\u0022`}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var body strings.Builder
		for body.Len() < r.IntN(60) {
			body.WriteString(pieces[r.IntN(len(pieces))])
		}
		str := `"` + body.String() + `"`
		var want string
		if err := json.Unmarshal([]byte(str), &want); err != nil {
			t.Fatalf("%s: %v", str, err)
		}
		pad := strings.Repeat(" ", r.IntN(3))
		b := []byte(pad + str + `,"next"`)
		if got := SkipString(b, len(pad)); got != len(pad)+len(str) {
			t.Fatalf("%s: end %d, want %d", b, got, len(pad)+len(str))
		}
		if got := SkipString(b[:len(pad)+len(str)-1], len(pad)); got != -1 {
			t.Fatalf("%s without its closing quote: end %d, want -1", str, got)
		}
	}
}
