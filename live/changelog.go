package live

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/aisle-search/aisle/store"
)

// maxLoggedResources is how many changed resources an admin change's
// log line names; the rest are counted ("+N more").
const maxLoggedResources = 5

// commit commits b, a change an admin made (synced), and logs it in one
// line, "admin change": the log position it took, the website it
// changed (when one), what it changed (the audit entries' resource types
// and ids; products and content items put and deleted), who made it (the
// key's or the console user's name; never a key) and how long the commit
// took. A change that failed is the caller's to answer, and logs nothing
// here. When the Writer publishes (PublishTo), a change made here is
// published first, and applied once its log has it; an entry of a
// replicated log is applied as it is, and logged the same way.
func (l *Writer) commit(b *store.Batch) (store.Applied, error) { return l.commitSynced(b, true) }

// commitSynced is commit, the store's append synced only when sync is
// set: a run of entries is synced by its last (store.Store.Apply).
func (l *Writer) commitSynced(b *store.Batch, sync bool) (store.Applied, error) {
	start := time.Now()
	if err := l.publish(b); err != nil {
		return store.Applied{}, err
	}
	a, err := l.st.Apply(b, sync)
	if err != nil {
		return a, err
	}
	attrs := make([]slog.Attr, 0, 8)
	attrs = append(attrs, slog.Uint64("position", a.Seq))
	if p, logged := b.Position(); logged {
		attrs = append(attrs, slog.String("log", p.Log), slog.Uint64("log_position", p.Seq))
	}
	if site := changedWebsite(b); site != "" {
		attrs = append(attrs, slog.String("website", site))
	}
	attrs = append(attrs, slog.String("changed", changedResources(b.AuditEntries())))
	if numbers, _ := b.ProductPuts(); len(numbers) > 0 {
		attrs = append(attrs, slog.Int("products_put", len(numbers)))
	}
	if n := len(b.ProductDeletes()); n > 0 {
		attrs = append(attrs, slog.Int("products_deleted", n))
	}
	if b.ChangesContent() {
		attrs = append(attrs, slog.Int("content_put", len(b.ContentPuts())))
	}
	attrs = append(attrs, slog.String("by", l.by.Name), slog.Duration("took", time.Since(start).Round(time.Microsecond)))
	l.log.LogAttrs(context.Background(), slog.LevelInfo, "admin change", attrs...)
	return a, nil
}

// changedResources is "TYPE id" of each entry, comma-separated, the
// first maxLoggedResources of them.
func changedResources(entries []store.AuditEntry) string {
	var b strings.Builder
	for i, e := range entries {
		if i == maxLoggedResources {
			b.WriteString(", +" + strconv.Itoa(len(entries)-i) + " more")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(e.ResourceType + " " + e.SourceID)
	}
	return b.String()
}

// changedWebsite is the website b changes: its own, or the one all its
// audit entries name; "" when none or several.
func changedWebsite(b *store.Batch) string {
	if b.Website != "" {
		return b.Website
	}
	site := ""
	for i, e := range b.AuditEntries() {
		if i > 0 && e.WebsiteUUID != site {
			return ""
		}
		site = e.WebsiteUUID
	}
	return site
}
