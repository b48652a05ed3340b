package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"
)

// replayRequest is one request of the replay test, sent as written on a
// connection of its own.
type replayRequest struct {
	name   string   // what it asks, unique within its group: the record's title
	method string   // GET, POST, PUT, DELETE, OPTIONS
	path   string   // with its query
	header []string // "Name: value", sent in this order after Host
	body   string
	// show, when set, is printed in place of a body too long to read.
	show string
}

// maxShownHeader is as much of a request header as a record shows.
const maxShownHeader = 120

// replayHost is the Host header every request sends.
const replayHost = "aisle.test"

// wire is the request's bytes: Host, the request's headers, a
// Content-Length unless it sets one or a Transfer-Encoding (so a declared
// length can lie), and Connection: close, since each request has its
// connection.
func (r replayRequest) wire() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\n", r.method, r.path, replayHost)
	declared := false
	for _, h := range r.header {
		b.WriteString(h + "\r\n")
		h = strings.ToLower(h)
		declared = declared || strings.HasPrefix(h, "content-length:") || strings.HasPrefix(h, "transfer-encoding:")
	}
	if !declared {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(r.body))
	}
	b.WriteString("Connection: close\r\n\r\n")
	b.WriteString(r.body)
	return b.Bytes()
}

// replayAnswer is what the server sent back.
type replayAnswer struct {
	status string // "200 OK"
	header http.Header
	body   []byte
}

// send writes r on a new connection to addr and reads the answer. The
// connection stays open for writing until the answer is read: a server
// may take a client that shuts its side for one that left, and stop
// rendering its answer.
func (r replayRequest) send(addr string) (replayAnswer, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return replayAnswer{}, err
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(60 * time.Second)); err != nil {
		return replayAnswer{}, err
	}
	written := make(chan error, 1)
	go func() { // the server may answer (a 413) before it reads the whole body
		_, err := conn.Write(r.wire())
		written <- err
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return replayAnswer{}, fmt.Errorf("read the answer: %w", err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return replayAnswer{}, fmt.Errorf("read the answer's body: %w", err)
	}
	conn.Close()
	<-written
	return replayAnswer{status: resp.Status, header: resp.Header, body: body}, nil
}

// record is the request and its answer as the golden file holds them:
//
//	### NAME
//	METHOD PATH
//	Header: value          (the request's own, as sent)
//	<blank line>
//	body                   (or what show says)
//	--> STATUS
//	Header: value          (the answer's, sorted, but Content-Length and Date)
//	<blank line>
//	body                   (see formatBody)
//
// n normalises what varies from run to run (replay_normalise_test.go).
func (r replayRequest) record(a replayAnswer, n *replayNormaliser) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s\n%s %s\n", r.name, r.method, r.path)
	for _, h := range r.header {
		if len(h) > maxShownHeader {
			h = fmt.Sprintf("%s… (%d bytes)", h[:maxShownHeader], len(h))
		}
		b.WriteString(h + "\n")
	}
	b.WriteString("\n")
	switch {
	case r.show != "":
		b.WriteString(r.show + "\n")
	case r.body != "":
		b.WriteString(strings.ReplaceAll(r.body, "\r\n", "⏎\n") + "\n")
	}
	fmt.Fprintf(&b, "--> %s\n", a.status)
	names := make([]string, 0, len(a.header))
	for name := range a.header {
		if name != "Content-Length" { // the body's, which is compared whole
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var head strings.Builder
	for _, name := range names {
		for _, v := range a.header[name] {
			head.WriteString(name + ": " + v + "\n")
		}
	}
	body := formatBody(a.body)
	head.WriteString("\n")
	out := n.normalise(head.String() + body)
	b.WriteString(out)
	return b.String()
}

// formatBody is a body as the golden file shows it. Compact JSON (what
// the server writes) is indented, one member a line, so a diff names the
// member that changed; indenting compact JSON loses nothing, so two
// bodies are equal exactly when their indented forms are. Anything else
// is shown as it is, after a line saying so and how long it is.
func formatBody(body []byte) string {
	if len(body) == 0 {
		return "(no body)\n"
	}
	var compact bytes.Buffer
	if json.Compact(&compact, body) == nil && bytes.Equal(compact.Bytes(), body) {
		var indented bytes.Buffer
		if json.Indent(&indented, body, "", "  ") == nil {
			return indented.String() + "\n"
		}
	}
	return fmt.Sprintf("(raw, %d bytes)\n%s\n", len(body), body)
}

// The demo's websites (demo.Config): the English shop and the Danish one.
const (
	replayShop  = "00000000-0000-4000-8000-000000000001"
	replayButik = "00000000-0000-4000-8000-000000000002"
)

// postJSON is a POST of a JSON body to path, with the headers given
// after its Content-Type.
func postJSON(name, path, body string, header ...string) replayRequest {
	return replayRequest{name: name, method: "POST", path: path, header: append([]string{"Content-Type: application/json"}, header...), body: body}
}

// withType is r with the content type ct in place of its own.
func (r replayRequest) withType(ct string) replayRequest {
	h := []string{"Content-Type: " + ct}
	for _, v := range r.header {
		if !strings.HasPrefix(strings.ToLower(v), "content-type:") {
			h = append(h, v)
		}
	}
	r.header = h
	return r
}
