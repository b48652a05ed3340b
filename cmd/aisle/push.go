package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/aisle-search/aisle/catalog"
)

// Pushing a feed to a running server (aisle import --url): the products
// are read and checked here, with the import's readers, mapping and
// rules, and sent to the admin API as JSON Lines in chunks; each chunk is
// one entry on the server, applied whole.
const (
	pushChunkProducts = 1000
	pushChunkBytes    = 768 << 10 // under the server's default 1 MiB body limit
)

// pushError is a batch the server did not acknowledge; it says which
// products were applied.
type pushError struct{ err error }

func (e *pushError) Error() string { return e.err.Error() }
func (e *pushError) Unwrap() error { return e.err }

// pushTotals sums the server's answers.
type pushTotals struct {
	Products, Added, Updated, Chunks int
}

// pusher sends chunks of products to one website's admin API.
type pusher struct {
	ctx      context.Context
	endpoint string
	adminKey string
	chunk    bytes.Buffer
	inChunk  int
	first    int // the number of the chunk's first product, from 1
	totals   pushTotals
}

func newPusher(ctx context.Context, url, adminKey, website string) *pusher {
	return &pusher{ctx: ctx, endpoint: strings.TrimRight(url, "/") + "/admin/v1/websites/" + website + "/products", adminKey: adminKey, first: 1}
}

// put adds a checked product, sending the chunk when it is full.
func (p *pusher) put(prod *catalog.Product) error {
	line, err := json.Marshal(prod)
	if err != nil {
		return err
	}
	if p.inChunk > 0 && p.chunk.Len()+len(line)+1 > pushChunkBytes {
		if err := p.flush(); err != nil {
			return err
		}
	}
	p.chunk.Write(line)
	p.chunk.WriteByte('\n')
	p.inChunk++
	if p.inChunk == pushChunkProducts {
		return p.flush()
	}
	return nil
}

// flush sends the chunk and adds the server's counts.
func (p *pusher) flush() error {
	if p.inChunk == 0 {
		return nil
	}
	last := p.first + p.inChunk - 1
	req, err := http.NewRequestWithContext(p.ctx, http.MethodPost, p.endpoint, bytes.NewReader(p.chunk.Bytes()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-ndjson")
	req.Header.Set("Authorization", "Bearer "+p.adminKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		// The batch may have reached the server and been applied before
		// the answer was lost.
		return &pushError{fmt.Errorf("push products %d–%d: %w; the %d products before them were applied, and these may have been: push again (an upsert of the same products changes nothing more)", p.first, last, err, p.first-1)}
	}
	defer resp.Body.Close()
	var answer struct {
		Added, Updated int
		Error          struct{ Code, Message string }
	}
	body, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(body, &answer); err != nil || resp.StatusCode != http.StatusOK {
		msg := strings.TrimSpace(string(body))
		if answer.Error.Message != "" {
			msg = answer.Error.Code + ": " + answer.Error.Message
		}
		return &pushError{fmt.Errorf("push products %d–%d: %s answered %d %s; the %d products before them were applied, these were not", p.first, last, p.endpoint, resp.StatusCode, msg, p.first-1)}
	}
	p.totals.Products += p.inChunk
	p.totals.Added += answer.Added
	p.totals.Updated += answer.Updated
	p.totals.Chunks++
	p.first = last + 1
	p.chunk.Reset()
	p.inChunk = 0
	return nil
}

// runPush is aisle import --url: every file's products, then the last
// chunk, and a line of totals.
func runPush(ctx context.Context, url, adminKey, website string, files []string, m *catalog.CSVMapping, stdout, stderr io.Writer, quiet bool) error {
	switch {
	case adminKey == "":
		return fmt.Errorf("import --url: --admin-key KEY is required (the key aisle serve printed, or AISLE_ADMIN_KEY)")
	case website == "":
		return fmt.Errorf("import --url: --website UUID is required (the website's uuid in the configuration; default-website without one)")
	}
	start := time.Now()
	p := newPusher(ctx, url, adminKey, website)
	for _, path := range files {
		if err := importFile(ctx, path, m, stderr, quiet, p.put); err != nil {
			var pe *pushError
			if errors.As(err, &pe) {
				return err
			}
			return fmt.Errorf("%w; the push stopped there: the %d products before the batch being filled were applied, that batch was not sent", err, p.first-1)
		}
	}
	if err := p.flush(); err != nil {
		return err
	}
	t := p.totals
	fmt.Fprintf(stdout, "pushed %d products to %s in %d batches in %s: %d added, %d updated\n",
		t.Products, p.endpoint, t.Chunks, time.Since(start).Round(time.Millisecond), t.Added, t.Updated)
	return nil
}
