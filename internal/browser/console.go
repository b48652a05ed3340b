package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/chromedp/chromedp"
)

// ConsoleWatch collects what a tab reports but plain logs, infos and
// debug lines: console errors and warnings, uncaught exceptions and
// browser log entries (a Content-Security-Policy violation, a failed
// load).
type ConsoleWatch struct {
	ctx    context.Context
	cancel context.CancelFunc
	mark   string // the debug line that ends the watch
	done   chan struct{}
	mu     sync.Mutex
	msgs   []chromedp.ConsoleMessage
}

// stopTimeout bounds Stop's wait for the page to echo the watch's mark.
const stopTimeout = 5 * time.Second

// WatchConsole starts collecting the reports of the tab of ctx (a
// context from New) until Stop, or until ctx ends.
func WatchConsole(ctx context.Context) *ConsoleWatch {
	ctx, cancel := context.WithCancel(ctx)
	w := &ConsoleWatch{ctx: ctx, cancel: cancel, done: make(chan struct{})}
	w.mark = fmt.Sprintf("aisle console watch %p %d", w, time.Now().UnixNano())
	messages := chromedp.Console(ctx) // subscribes now
	go func() {
		defer close(w.done)
		for m, err := range messages {
			if err != nil {
				return
			}
			switch m.Type {
			case chromedp.ConsoleDebug:
				if m.Text == w.mark {
					return
				}
				continue
			case chromedp.ConsoleLog, chromedp.ConsoleInfo:
				continue
			}
			w.mu.Lock()
			w.msgs = append(w.msgs, m)
			w.mu.Unlock()
		}
	}()
	return w
}

// Stop ends the watch and returns what it collected, in order. It has
// the page write the watch's mark to the console and ends at it, so
// every report before the call is in; when the page cannot (its context
// ended), the reports still queued are lost.
func (w *ConsoleWatch) Stop() []chromedp.ConsoleMessage {
	defer w.cancel()
	mark, _ := json.Marshal(w.mark)
	ctx, cancel := context.WithTimeout(w.ctx, stopTimeout)
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf("console.debug(%s), true", mark)))
	if err == nil {
		select {
		case <-w.done:
		case <-ctx.Done():
		}
	}
	cancel()
	w.cancel()
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.msgs
}
