package events

import (
	"errors"
	"fmt"

	"github.com/goccy/go-json"
)

// Limits of a batch: POST /serve/collect takes up to MaxBatch events,
// naming up to MaxBatchProducts product numbers together (a cart or an
// order names up to MaxProducts alone), in a body of up to
// MaxBatchBytes: a batch's work is bounded by a few milliseconds, not by
// 500 orders of 1,000 products.
const (
	MaxBatch         = 500
	MaxBatchProducts = 5000
	MaxBatchBytes    = 512 << 10
)

// batch is a batch body: {"events": [event, …]}.
type batch struct {
	Events []json.RawMessage `json:"events"`
}

// DecodeBatch reads a batch body strictly: an object whose only member
// is events, a list of 1 to MaxBatch events, each as Decode reads one
// (kind among its members). An error names the event as
// "events.3.member". It does not Check the events.
func DecodeBatch(data []byte) ([]Event, error) {
	var b batch
	if err := decodeStrict(data, &b, "a batch"); err != nil {
		return nil, err
	}
	switch {
	case len(b.Events) == 0:
		return nil, invalid("events", "is required: a list of 1 to %d events", MaxBatch)
	case len(b.Events) > MaxBatch:
		return nil, invalid("events", "%d events: at most %d in one batch", len(b.Events), MaxBatch)
	}
	out := make([]Event, len(b.Events))
	products := 0
	for i, raw := range b.Events {
		e, err := Decode(raw)
		if err != nil {
			return nil, inBatch(i, err)
		}
		out[i] = e
		if products += len(e.ProductNumbers) + len(e.Lines); products > MaxBatchProducts {
			return nil, invalid("events", "name more than %d product numbers together (carts' and orders'): send fewer events a batch", MaxBatchProducts)
		}
	}
	return out, nil
}

// inBatch is err, an *Error about one event, about event i of a batch:
// its member is named "events.i.member". Other errors are returned as
// they are.
func inBatch(i int, err error) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	field := fmt.Sprintf("events.%d", i)
	if e.Field != "" {
		field += "." + e.Field
	}
	return &Error{Field: field, Message: e.Message}
}
