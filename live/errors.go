package live

import (
	"errors"

	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/store"
)

// errUnavailable is store.ErrUnavailable told to a client.
var errUnavailable = &engine.Error{Kind: engine.KindUnavailable, Code: "STORAGE_UNAVAILABLE",
	Message: "the server's disk refused the write, so nothing changed; searches are still answered; send it again shortly"}

// AsError is engine.AsError, and tells a write the disk refused
// (store.ErrUnavailable anywhere in err's chain) as errUnavailable
// (engine.KindUnavailable), and a change this node is not the writer of
// (NotWriterError) as errNoWriter, also unavailable: what an adapter
// answers for any error of a read or a write.
func AsError(err error) *engine.Error {
	if _, ok := errors.AsType[*engine.Error](err); !ok && errors.Is(err, store.ErrUnavailable) {
		return errUnavailable
	}
	if _, ok := errors.AsType[*NotWriterError](err); ok {
		return errNoWriter
	}
	return engine.AsError(err)
}
