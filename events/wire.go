package events

import (
	"bytes"
	"reflect"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/internal/jsonfield"
)

// wireEvent is an event as a sender writes it: Event's members, with
// product numbers that real clients of the service the spec describes
// also send as JSON numbers (docs/decisions.md, "Real clients'
// requests"), and the page context they add (Referrer), read and not
// kept. Its own members shadow Event's of the same JSON name.
type wireEvent struct {
	Event
	ProductNumber  productNumber   `json:"productNumber"`
	ProductNumbers []productNumber `json:"productNumbers"`
	Lines          []wireLine      `json:"lines"`
	// Referrer is the address the visitor came from, which trackers
	// send with a view or page view; Aisle keeps no referrer.
	Referrer string `json:"referrer"`
}

// wireLine is a Line as a sender writes it.
type wireLine struct {
	ProductNumber productNumber `json:"productNumber"`
	Quantity      float64       `json:"quantity"`
	Price         float64       `json:"price"`
}

// event is w as the Event it stands for.
func (w *wireEvent) event() Event {
	e := w.Event
	e.ProductNumber = string(w.ProductNumber)
	if w.ProductNumbers != nil {
		e.ProductNumbers = make([]string, len(w.ProductNumbers))
		for i, pn := range w.ProductNumbers {
			e.ProductNumbers[i] = string(pn)
		}
	}
	if w.Lines != nil {
		e.Lines = make([]Line, len(w.Lines))
		for i, l := range w.Lines {
			e.Lines[i] = Line{ProductNumber: string(l.ProductNumber), Quantity: l.Quantity, Price: l.Price}
		}
	}
	return e
}

// productNumber is a product number written as a string or as a JSON
// integer (123 is "123"); a fraction, an exponent or any other value is
// a type error naming the member.
type productNumber string

// UnmarshalJSON reads a string or the digits of a non-negative integer.
func (p *productNumber) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*p = productNumber(s)
		return nil
	}
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return jsonfield.TypeError(b, reflect.TypeFor[string]())
		}
	}
	*p = productNumber(b)
	return nil
}
