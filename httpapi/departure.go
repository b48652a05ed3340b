package httpapi

import (
	"context"
	"errors"
	"net"
	"sync"
	"time"

	"github.com/valyala/fasthttp"
)

// errClientLeft is the cause of a request's context canceled because
// its client closed the connection.
var errClientLeft = errors.New("the client closed the connection")

// clientContext is a request's context for the engine: canceled, with
// cause errClientLeft, once its client closes the connection (or resets
// it) before the answer is written, so a render stops instead of running
// on for no one. fasthttp reads nothing while a handler runs, and its
// RequestCtx is done only when the server shuts down, so the connection
// is watched: a peek that waits for it to be readable (watch, on unix;
// elsewhere nothing is watched). That costs a goroutine and a poll, so
// it starts when the engine first asks (Done), which only a render does.
// A client that half-closes its side while it waits for the answer
// counts as gone, as with net/http.
type clientContext struct {
	context.Context
	cancel   context.CancelCauseFunc
	conn     net.Conn
	once     sync.Once
	watching chan struct{} // closed when the watch ends; nil when none started
}

// watchClient is the context of the request ctx; the handler calls its
// stop before it returns.
func watchClient(ctx *fasthttp.RequestCtx) *clientContext {
	c, cancel := context.WithCancelCause(context.Background())
	return &clientContext{Context: c, cancel: cancel, conn: ctx.Conn()}
}

// Done starts the watch, once.
func (c *clientContext) Done() <-chan struct{} {
	c.once.Do(c.watch)
	return c.Context.Done()
}

// stop ends the watch, waking its poll with a read deadline that it then
// clears (fasthttp sets its own before it reads the next request), and
// releases the context.
func (c *clientContext) stop() {
	c.once.Do(func() {}) // no watch starts after this
	if c.watching != nil {
		_ = c.conn.SetReadDeadline(time.Now())
		<-c.watching
		_ = c.conn.SetReadDeadline(time.Time{})
	}
	c.cancel(nil)
}
