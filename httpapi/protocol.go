package httpapi

import (
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/engine"
)

// maxHeadBytes caps a request's line and headers together (fasthttp's
// read buffer, its default); a longer head is a 431.
const maxHeadBytes = 4 << 10

// Requests that are not HTTP/1.1 as fasthttp reads them, in their head
// (ErrorHandler) or in a streamed body (body.go), are answered with the
// error body and a fixed message per kind of fault. fasthttp's error text
// is never shown, nor logged (SecureErrorLogMessage): it quotes the
// request, its Authorization header included.

// protocolFaults are the faults fasthttp reports as typed errors, by what
// the answer says; any other is "not a valid HTTP/1.1 request line or
// header".
var protocolFaults = []struct {
	err error
	msg string
}{
	{fasthttp.ErrDuplicateContentLength, "more than one Content-Length header"},
	{fasthttp.ErrNonNumericChars, "Content-Length is not a number"},
	{fasthttp.ErrUnsupportedTransferEncoding, "a Transfer-Encoding other than chunked"},
	{fasthttp.ErrMissingRequestMethod, "the request line has no method"},
	{fasthttp.ErrUnsupportedRequestMethod, "the request line's method is not a method"},
	{fasthttp.ErrEmptyRequestURI, "the request line has no path"},
	{fasthttp.ErrExtraWhitespaceInRequestLine, "extra spaces in the request line"},
	{io.ErrUnexpectedEOF, "the connection ended before the whole request arrived"},
	{io.EOF, "the connection ended before the whole request arrived"},
}

// protocolError is the answer to err, a request whose line or headers
// fasthttp could not read; maxBody is the body limit a 413 names.
func protocolError(err error, maxBody int) error {
	if e := protocolFault(err, maxBody); e != nil {
		return e
	}
	return engine.Invalid("", "malformed HTTP request: not a valid HTTP/1.1 request line or header")
}

// bodyStreamError is the answer to err, a failure reading a streamed
// body (a chunked one, or one longer than MaxBodyBytes).
func bodyStreamError(err error, maxBody int) error {
	if e := protocolFault(err, maxBody); e != nil {
		return e
	}
	return engine.Invalid("", "malformed HTTP request: a malformed chunked body")
}

// protocolFault is the answer to a fault fasthttp reports as a typed
// error, or nil.
func protocolFault(err error, maxBody int) error {
	var small *fasthttp.ErrSmallBuffer
	var chunk fasthttp.ErrBrokenChunk
	var netErr net.Error
	switch {
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		return tooLarge(maxBody)
	case errors.As(err, &small):
		return &engine.Error{Kind: kindHeadTooLarge, Code: "HEADERS_TOO_LARGE", Message: fmt.Sprintf("the request line and headers exceed %d bytes", maxHeadBytes)}
	case errors.As(err, &netErr) && netErr.Timeout():
		return &engine.Error{Kind: kindTimeout, Code: "REQUEST_TIMEOUT", Message: "the request did not arrive in time"}
	case errors.As(err, &chunk):
		return engine.Invalid("", "malformed HTTP request: a malformed chunked body")
	}
	for _, f := range protocolFaults {
		if errors.Is(err, f.err) {
			return engine.Invalid("", "malformed HTTP request: %s", f.msg)
		}
	}
	return nil
}
