package live

import (
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/store"
)

// The audit log: every change the Writer makes carries its entries in
// the same store entry (store.Batch.Audit), so nothing changes without
// its entry and no entry stands for a change that was not made.

// The resource types of the entries Aisle writes: the spec's
// AuditResourceType values, and two of Aisle's (the spec's list may
// grow): API_KEY and CAMPAIGN.
const (
	ResourceEvent        = "EVENT"
	ResourceWebsite      = "WEBSITE"
	ResourceFeedConfig   = "FEED_CONFIG"
	ResourcePagesDesign  = "PAGES_DESIGN"
	ResourcePagesConfig  = "PAGES_CONFIG"
	ResourceRecomDesign  = "RECOM_DESIGN"
	ResourceRecomConfig  = "RECOM_CONFIG"
	ResourceSearchConfig = "SEARCH_CONFIG"
	ResourceAPIKey       = "API_KEY"
	ResourceCampaign     = "CAMPAIGN"
)

// The audit log's types, as the store keeps and reads them.
type (
	AuditEntry   = store.AuditEntry
	AuditSession = store.AuditSession
	AuditQuery   = store.AuditQuery
	AuditFilter  = store.AuditFilter
	AuditPage    = store.AuditPage
)

// AuditLogs is a page of the audit log (store.Store.AuditLogs).
func (l *Writer) AuditLogs(q AuditQuery) (AuditPage, error) { return l.st.AuditLogs(q) }

// session is the audit session of a's changes, or nil for no one's.
func (a Actor) session() *AuditSession {
	if a.Name == "" && a.Session == "" {
		return nil
	}
	return &AuditSession{SessionID: a.Session, EntityName: a.Name, Events: a.Events}
}

// entry is an audit entry about the resource id of type kind on website
// w (nil: of no one website, in company), made by a.
func (a Actor) entry(kind string, w *config.Website, company, id, title string, changed []string) AuditEntry {
	e := AuditEntry{SourceID: id, ResourceType: kind, ResourceTitle: title, ChangedFields: changed, CompanyID: company, Session: a.session()}
	site := ""
	if w != nil {
		site, e.WebsiteUUID, e.CompanyID = w.UUID, w.UUID, w.Company()
	}
	e.SequenceKey = kind + ":" + site + ":" + id
	if e.ResourceTitle == "" {
		e.ResourceTitle = id
	}
	return e
}

// catalogEntry is the audit entry of a product or content write to
// website w: the catalog (FEED_CONFIG "catalog"), with changedFields
// "products" and or "content".
func (l *Writer) catalogEntry(w *config.Website, b *store.Batch) AuditEntry {
	var changed []string
	if b.ChangesProducts() {
		changed = append(changed, "products")
	}
	if b.ChangesContent() {
		changed = append(changed, "content")
	}
	return l.by.entry(ResourceFeedConfig, w, "", "catalog", "Catalog of "+siteTitle(w), changed)
}

// siteTitle is a website's name, or its UUID when it has none.
func siteTitle(w *config.Website) string {
	if w.Name != "" {
		return w.Name
	}
	return w.UUID
}
