package replica

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// LogStatus is one log as this node sees it.
type LogStatus struct {
	// Log is the log's name: "server" or a website's UUID.
	Log string `json:"log"`
	// Applied is the last entry applied here; Last the log's last entry
	// as last seen (read every third of the lease TTL, and moved by every
	// entry followed); Lag the entries between them.
	Applied uint64 `json:"applied"`
	Last    uint64 `json:"last"`
	Lag     uint64 `json:"lag"`
	// Writing says this node writes the log; Writer is the URL of the
	// node that does, "" when none is known.
	Writing bool   `json:"writing"`
	Writer  string `json:"writer,omitempty"`
	// Error is why the last entry could not be applied, or why the log's
	// last position could not be read for unreadAfter lease TTLs and 10 s
	// at least (this node is cut off from a majority of the log's
	// servers); "" when neither.
	Error string `json:"error,omitempty"`
}

// A log's last position may go unread for unreadAfter lease TTLs, and
// unreadAtLeast, before its status reports it as an error: a stream's
// leader elections after a NATS server stops take seconds.
const (
	unreadAfter   = 3
	unreadAtLeast = 10 * time.Second
)

// Status is every followed log's status, in the order of their names:
// the store's positions read once, the logs' under one lock.
func (r *Replicator) Status() []LogStatus {
	applied := r.o.Store.Positions()
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]LogStatus, 0, len(r.logs))
	for name, s := range r.logs {
		a := applied[name]
		st := LogStatus{Log: name, Applied: a, Last: max(s.last, a), Writing: s.writable, Writer: s.writer}
		switch {
		case s.err != nil:
			st.Error = s.err.Error()
		case s.unread != nil && now.Sub(s.readSince) > max(unreadAfter*r.o.LeaseTTL, unreadAtLeast):
			// Cut off from a majority of the log's servers: the lag cannot
			// be known, and is reported as a stop, so /readyz fails.
			st.Error = fmt.Sprintf("the log's last position has not been readable for %s: %v", now.Sub(s.readSince).Round(time.Second), s.unread)
		}
		st.Lag = st.Last - st.Applied
		out = append(out, st)
	}
	slices.SortFunc(out, func(a, b LogStatus) int { return strings.Compare(a.Log, b.Log) })
	return out
}

// Writer is the URL of the node that writes the log name, and whether
// it is this node and the log takes its writes now; url is "" when no
// writer is known (a lease being taken over). The writer is as last
// seen (every third of the lease TTL); when none was, the lease is read
// now.
func (r *Replicator) Writer(name string) (url string, writing bool) {
	s := r.state(name)
	if s == nil {
		return "", false
	}
	r.mu.Lock()
	url, writing = s.writer, s.writable
	r.mu.Unlock()
	if url != "" {
		return url, writing
	}
	ctx, cancel := context.WithTimeout(r.ctx, r.o.LeaseTTL/3)
	defer cancel()
	r.holder(ctx, s)
	r.mu.Lock()
	defer r.mu.Unlock()
	return s.writer, s.writable
}
