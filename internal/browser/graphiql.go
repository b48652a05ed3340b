package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

// GraphiQLPath is where a server serves GraphiQL (GET, Accept: text/html)
// and its GraphQL endpoint (POST).
const GraphiQLPath = "/graphql"

// The parts of GraphiQL 3's page the steps use.
const (
	queryEditor   = ".graphiql-query-editor .CodeMirror"
	headersTab    = `.graphiql-editor-tools button[data-name="headers"]`
	headersEditor = ".graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror"
	executeButton = ".graphiql-execute-button"
	resultPane    = ".graphiql-response .CodeMirror"
)

// DefaultGraphiQLTimeout bounds RunGraphiQL's steps when
// GraphiQLRun.Timeout is zero.
const DefaultGraphiQLTimeout = 30 * time.Second

// GraphiQLRun is what RunGraphiQL does in the page.
type GraphiQLRun struct {
	// APIKey is passed as ?apiKey= of the page's URL; none when empty.
	APIKey string
	// Query is set in the query editor.
	Query string
	// Headers, when not empty, is set in the headers editor (a JSON
	// object), its tab opened first as a user would.
	Headers string
	// Want is text the result pane must come to hold.
	Want string
	// Timeout bounds the steps; DefaultGraphiQLTimeout when zero.
	Timeout time.Duration
}

// GraphiQLResult is what the page showed.
type GraphiQLResult struct {
	// Result is the result pane's text when the steps ended.
	Result string
	// Screenshot is a PNG of the viewport once the result showed; nil
	// when the steps failed before.
	Screenshot []byte
	// Console holds the page's console errors and warnings, uncaught
	// exceptions and browser log entries (a Content-Security-Policy
	// violation, a failed load) while the steps ran.
	Console []chromedp.ConsoleMessage
}

// ErrGraphiQL is wrapped by RunGraphiQL's errors that come from the page
// (the result never held Want), not from the browser.
var ErrGraphiQL = errors.New("browser: GraphiQL")

// RunGraphiQL opens base+GraphiQLPath?apiKey=APIKey in the tab of ctx (a
// context from New), waits for GraphiQL to render, sets Headers and
// Query in their editors, empties the result pane, clicks the run button
// and waits for the result, which must hold Want, then takes a
// screenshot. base is the server's
// origin, e.g. "http://127.0.0.1:8080". The result is returned also
// with an error, for the test to show what the page showed.
func RunGraphiQL(ctx context.Context, base string, run GraphiQLRun) (res GraphiQLResult, err error) {
	timeout := run.Timeout
	if timeout == 0 {
		timeout = DefaultGraphiQLTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	console := WatchConsole(ctx)
	defer func() { res.Console = console.Stop() }()

	page := strings.TrimRight(base, "/") + GraphiQLPath
	if run.APIKey != "" {
		page += "?apiKey=" + url.QueryEscape(run.APIKey)
	}
	steps := []chromedp.Action[chromedp.Void]{
		chromedp.EmulateViewport(1280, 800),
		chromedp.Navigate(page),
		chromedp.WaitVisible(chromedp.CSS(queryEditor)),
		chromedp.WaitVisible(chromedp.CSS(executeButton)),
	}
	if run.Headers != "" {
		steps = append(steps,
			chromedp.Click(chromedp.CSS(headersTab)),
			chromedp.WaitVisible(chromedp.CSS(headersEditor)),
			setEditor(headersEditor, run.Headers),
		)
	}
	steps = append(steps,
		setEditor(queryEditor, run.Query),
		setEditor(resultPane, ""),
		chromedp.Click(chromedp.CSS(executeButton)),
	)
	if err = chromedp.Do(ctx, steps...); err != nil {
		res.Result = resultText(ctx)
		return res, fmt.Errorf("opening %s and running %q: %w", page, run.Query, err)
	}

	// The pane was emptied before the click: the first text it shows is
	// the answer.
	for res.Result == "" {
		select {
		case <-ctx.Done():
			return res, fmt.Errorf("%w: no result within %v", ErrGraphiQL, timeout)
		case <-time.After(50 * time.Millisecond):
		}
		res.Result = resultText(ctx)
	}
	if !strings.Contains(res.Result, run.Want) {
		return res, fmt.Errorf("%w: the result pane does not hold %q: %s", ErrGraphiQL, run.Want, res.Result)
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		return res, fmt.Errorf("screenshot of %s: %w", page, err)
	}
	res.Screenshot = png
	return res, nil
}

// setEditor sets the text of the CodeMirror 5 editor at selector through
// its API (typing would meet its auto-closed brackets; the result pane is
// read-only) and reads it back.
func setEditor(selector, text string) chromedp.Action[chromedp.Void] {
	sel, _ := json.Marshal(selector)
	value, _ := json.Marshal(text)
	js := fmt.Sprintf(`(() => {
	const cm = document.querySelector(%s).CodeMirror;
	cm.setValue(%s);
	return cm.getValue();
})()`, sel, value)
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		got, err := chromedp.Evaluate[string](js)(ctx, t)
		if err != nil {
			return fmt.Errorf("setting the editor %s: %w", selector, err)
		}
		if got != text {
			return fmt.Errorf("%w: the editor %s holds %q after setting %q", ErrGraphiQL, selector, got, text)
		}
		return nil
	})
}

// resultText is the result pane's text, or "" when there is none yet or
// the page cannot be read.
func resultText(ctx context.Context) string {
	sel, _ := json.Marshal(resultPane)
	js := fmt.Sprintf(`(() => {
	const el = document.querySelector(%s);
	return el && el.CodeMirror ? el.CodeMirror.getValue() : "";
})()`, sel)
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
	if err != nil {
		return ""
	}
	return text
}
