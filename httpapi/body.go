package httpapi

import (
	"bytes"
	"fmt"
	"io"

	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/engine"
)

// Request bodies. The server streams them (fasthttp's StreamRequestBody):
// a body up to Options.MaxBodyBytes is read before the handler runs, a
// longer one is left on the connection for the handler to read. Every
// route but the admin writes takes MaxBodyBytes at most (body); an admin
// batch is read as a stream of up to Options.MaxWriteBytes (bodyReader),
// so its raw bytes are never held whole beside the parsed batch.

// tooLarge is the 413 for a body past limit bytes.
func tooLarge(limit int) error {
	return &engine.Error{Kind: engine.KindTooLarge, Code: "BODY_TOO_LARGE", Message: fmt.Sprintf("request body exceeds %d bytes", limit)}
}

// body is the request's body, at most limit bytes: a longer one, declared
// by Content-Length or found while reading a chunked body, is a 413.
func body(ctx *fasthttp.RequestCtx, limit int) ([]byte, error) {
	n := ctx.Request.Header.ContentLength()
	if n > limit {
		return nil, tooLarge(limit)
	}
	r := ctx.RequestBodyStream()
	if n >= 0 || r == nil {
		return ctx.PostBody(), nil // fasthttp reads exactly the declared length
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(r, int64(limit)+1)); err != nil {
		return nil, bodyStreamError(err, limit)
	}
	if buf.Len() > limit {
		return nil, tooLarge(limit)
	}
	return buf.Bytes(), nil
}

// cappedReader reads a body stream and fails past limit bytes with the
// 413 (tooLarge), and on the stream's own failure (a malformed chunk)
// with bodyStreamError's answer, so the write reading it tells both from
// its rows' errors.
type cappedReader struct {
	r     io.Reader
	left  int64
	limit int
}

// bodyReader streams the request's body, at most limit bytes. A
// Content-Length past limit is refused before anything is read.
func bodyReader(ctx *fasthttp.RequestCtx, limit int) (*cappedReader, error) {
	if ctx.Request.Header.ContentLength() > limit {
		return nil, tooLarge(limit)
	}
	var r io.Reader = ctx.RequestBodyStream()
	if r == nil {
		r = bytes.NewReader(ctx.PostBody())
	}
	return &cappedReader{r: r, left: int64(limit), limit: limit}, nil
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// One byte more tells a body of exactly limit bytes from a longer one.
		var one [1]byte
		if n, _ := io.ReadFull(c.r, one[:]); n == 0 {
			return 0, io.EOF
		}
		return 0, tooLarge(c.limit)
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if err != nil && err != io.EOF {
		return n, bodyStreamError(err, c.limit)
	}
	return n, err
}

// maxDrain bounds what drainBody reads and discards of a refused body.
const maxDrain = 64 << 20

// drainBody reads and discards what is left of a refused body, up to
// max(maxDrain, MaxWriteBytes) bytes, and closes the connection after the
// answer: a client still writing would otherwise see its connection reset
// before it reads the 413 (net/http's server drains the same way). Past
// the bound the connection is closed with the body unread.
func (s *Server) drainBody(ctx *fasthttp.RequestCtx) {
	ctx.SetConnectionClose()
	if r := ctx.RequestBodyStream(); r != nil {
		_, _ = io.CopyN(io.Discard, r, int64(max(maxDrain, s.opt.MaxWriteBytes)))
	}
}
