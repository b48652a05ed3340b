package live

import (
	"bytes"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/config"
)

// configEntries are the audit entries of replacing configuration old
// (nil: none) with new: one for each resource that differs, naming the
// members that changed (changedFields), in the configuration's order.
func (l *Writer) configEntries(old, new *config.File) []AuditEntry {
	if old == nil {
		old = &config.File{}
	}
	var out []AuditEntry
	for _, uuid := range websiteOrder(old, new) {
		was, _ := old.Website(uuid)
		now, _ := new.Website(uuid)
		out = append(out, l.websiteEntries(was, now)...)
	}
	return out
}

// websiteOrder is the UUIDs of new's websites, then those only old has.
func websiteOrder(old, new *config.File) []string {
	var out []string
	for _, w := range new.Websites {
		out = append(out, w.UUID)
	}
	for _, w := range old.Websites {
		if _, ok := new.Website(w.UUID); !ok {
			out = append(out, w.UUID)
		}
	}
	return out
}

// websiteEntries are the entries of website was becoming now (either
// nil: added or removed): its own settings, its indexed fields, and
// each search configuration, page, box and campaign.
func (l *Writer) websiteEntries(was, now *config.Website) []AuditEntry {
	site := now
	if site == nil {
		site = was
	}
	var zero config.Website
	a, b := was, now
	if a == nil {
		a = &zero
	}
	if b == nil {
		b = &zero
	}
	var out []AuditEntry
	own := func(w *config.Website) config.Website {
		c := *w
		c.IndexedFields, c.Search, c.Pages, c.Boxes, c.Campaigns = nil, nil, nil, nil, nil
		return c
	}
	if changed := diffMembers(own(a), own(b)); len(changed) > 0 || was == nil || now == nil {
		e := l.by.entry(ResourceWebsite, site, "", site.UUID, siteTitle(site), changed)
		e.Keypoint, e.Endpoint = was == nil, now == nil
		out = append(out, e)
	}
	if !sameJSON(a.IndexedFields, b.IndexedFields) {
		out = append(out, l.by.entry(ResourceFeedConfig, site, "", "indexedFields", "Indexed fields of "+siteTitle(site), []string{"indexedFields"}))
	}
	out = append(out, versioned(l, site, ResourceSearchConfig, "", a.Search, b.Search, func(s config.SearchConfig) (string, string, []versionOf) {
		return s.Key, s.Key, versionsOf(s.Versions, func(v config.SearchVersion) (int, string) { return v.ID, v.Status })
	})...)
	out = append(out, versioned(l, site, ResourcePagesConfig, ResourcePagesDesign, a.Pages, b.Pages, func(p config.Page) (string, string, []versionOf) {
		return p.Key, p.Name, versionsOf(p.Versions, func(v config.PageVersion) (int, string) { return v.ID, v.Status })
	})...)
	out = append(out, keyed(l, site, ResourceRecomConfig, ResourceRecomDesign, a.Boxes, b.Boxes, func(x config.Box) (string, string) { return x.Key, x.Name })...)
	out = append(out, keyed(l, site, ResourceCampaign, "", a.Campaigns, b.Campaigns, func(x config.Campaign) (string, string) { return x.ID, x.Name })...)
	return out
}

// designMembers are the members of a page version or a box that are its
// design (a *_DESIGN entry) rather than its configuration.
var designMembers = []string{"template", "style", "javascript"}

// splitDesign splits changed members into design's and the rest; a
// member of a version ("versions[2].template") counts by its last part.
func splitDesign(changed []string) (design, rest []string) {
	for _, c := range changed {
		last := c
		if i := strings.LastIndexByte(c, '.'); i >= 0 {
			last = c[i+1:]
		}
		if slices.Contains(designMembers, last) {
			design = append(design, c)
		} else {
			rest = append(rest, c)
		}
	}
	return design, rest
}

// keyed is the entries of resources without versions (boxes,
// campaigns), matched by key between old and new: one per resource
// added, removed or changed; a change of its design members goes in an
// entry of type design, when the type has one.
func keyed[T any](l *Writer, w *config.Website, kind, design string, old, new []T, id func(T) (key, title string)) []AuditEntry {
	var out []AuditEntry
	for _, k := range keysOf(old, new, id) {
		a, inOld := find(old, k, id)
		b, inNew := find(new, k, id)
		title := k
		if _, t := id(b); inNew && t != "" {
			title = t
		} else if _, t := id(a); !inNew && t != "" {
			title = t
		}
		changed := diffMembers(a, b) // a resource added or removed: against the zero value
		var e *AuditEntry
		out, e = l.resourceEntries(out, w, kind, design, k, title, changed, inOld && inNew)
		if e != nil {
			e.Endpoint = !inNew
		}
	}
	return out
}

// resourceEntries appends to out the entries of one resource's change:
// the members of its design (when kind has a design type) in one entry,
// the rest in another of kind, which it answers (nil when there is none:
// a resource kept whose design alone changed, or nothing changed).
func (l *Writer) resourceEntries(out []AuditEntry, w *config.Website, kind, design, key, title string, changed []string, kept bool) ([]AuditEntry, *AuditEntry) {
	if len(changed) == 0 && kept {
		return out, nil
	}
	cfg := changed
	if design != "" {
		var d []string
		d, cfg = splitDesign(changed)
		if len(d) > 0 {
			out = append(out, l.by.entry(design, w, "", key, title, d))
		}
		if len(cfg) == 0 && kept {
			return out, nil
		}
	}
	out = append(out, l.by.entry(kind, w, "", key, title, cfg))
	return out, &out[len(out)-1]
}

// versionOf is a version's id and status.
type versionOf struct {
	id     int
	status string
}

func versionsOf[V any](vs []V, of func(V) (int, string)) []versionOf {
	out := make([]versionOf, len(vs))
	for i, v := range vs {
		out[i].id, out[i].status = of(v)
	}
	return out
}

// versioned is keyed for resources with versions (search
// configurations, pages): changed members of a version are named
// "versions[<id>].<member>", a version added or removed
// "versions[<id>]"; publishing (a version that becomes live) is a
// keypoint, and removing a draft or the whole resource an endpoint.
func versioned[T any](l *Writer, w *config.Website, kind, design string, old, new []T, id func(T) (key, title string, versions []versionOf)) []AuditEntry {
	key := func(x T) (string, string) { k, t, _ := id(x); return k, t }
	var out []AuditEntry
	for _, k := range keysOf(old, new, key) {
		a, inOld := find(old, k, key)
		b, inNew := find(new, k, key)
		_, title, _ := id(pick(a, b, inNew))
		if title == "" {
			title = k
		}
		var e *AuditEntry
		out, e = l.resourceEntries(out, w, kind, design, k, title, versionChanges(a, b), inOld && inNew)
		if e != nil {
			_, _, va := id(a)
			_, _, vb := id(b)
			e.Keypoint = published(va, vb, inOld)
			e.Endpoint = !inNew || draftRemoved(va, vb)
		}
	}
	return out
}

// versionChanges diffs two resources with versions member by member,
// versions matched by id.
func versionChanges[T any](a, b T) []string {
	ma, mb := members(a), members(b)
	var out []string
	for _, name := range unionKeys(ma, mb) {
		if name == "versions" {
			out = append(out, versionsDiff(ma[name], mb[name])...)
			continue
		}
		if !bytes.Equal(ma[name], mb[name]) {
			out = append(out, name)
		}
	}
	return out
}

// versionsDiff names what differs between two versions arrays.
func versionsDiff(a, b json.RawMessage) []string {
	va, vb := byID(a), byID(b)
	ids := slices.Sorted(maps.Keys(union(va, vb)))
	var out []string
	for _, id := range ids {
		x, inA := va[id]
		y, inB := vb[id]
		prefix := "versions[" + strconv.Itoa(id) + "]"
		if !inA || !inB {
			out = append(out, prefix)
			continue
		}
		for _, m := range diffRaw(x, y) {
			out = append(out, prefix+"."+m)
		}
	}
	return out
}

// byID is a versions array's members by their id.
func byID(raw json.RawMessage) map[int]map[string]json.RawMessage {
	var vs []map[string]json.RawMessage
	_ = json.Unmarshal(raw, &vs)
	out := map[int]map[string]json.RawMessage{}
	for _, v := range vs {
		var id int
		_ = json.Unmarshal(v["id"], &id)
		out[id] = v
	}
	return out
}

func union[K comparable, V any](a, b map[K]V) map[K]V {
	out := maps.Clone(a)
	if out == nil {
		out = map[K]V{}
	}
	maps.Copy(out, b)
	return out
}

// published reports whether a version that was not live is live now
// (a new resource's live version counts).
func published(was, now []versionOf, existed bool) bool {
	live := func(vs []versionOf) int {
		for _, v := range vs {
			if v.status == config.StatusLive {
				return v.id
			}
		}
		return -1
	}
	return live(now) >= 0 && (!existed || live(now) != live(was))
}

// draftRemoved reports whether a draft version of was is gone from now.
func draftRemoved(was, now []versionOf) bool {
	for _, v := range was {
		if v.status == config.StatusDraft && !slices.ContainsFunc(now, func(n versionOf) bool { return n.id == v.id }) {
			return true
		}
	}
	return false
}

// keysOf are the keys of new's resources in order, then those only old
// has.
func keysOf[T any](old, new []T, id func(T) (string, string)) []string {
	var out []string
	seen := map[string]bool{}
	for _, list := range [][]T{new, old} {
		for _, x := range list {
			if k, _ := id(x); !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// find is the resource of list keyed k.
func find[T any](list []T, k string, id func(T) (string, string)) (T, bool) {
	for _, x := range list {
		if key, _ := id(x); key == k {
			return x, true
		}
	}
	var zero T
	return zero, false
}

// pick is b when inB, else a.
func pick[T any](a, b T, inB bool) T {
	if inB {
		return b
	}
	return a
}

// diffMembers names the JSON members of a and b that differ.
func diffMembers(a, b any) []string {
	return diffRaw(members(a), members(b))
}

// diffRaw names the members of two decoded objects that differ, sorted.
func diffRaw(a, b map[string]json.RawMessage) []string {
	var out []string
	for _, name := range unionKeys(a, b) {
		if !bytes.Equal(a[name], b[name]) {
			out = append(out, name)
		}
	}
	return out
}

// members is v's JSON object by member; empty for a value that is not
// one.
func members(v any) map[string]json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var m map[string]json.RawMessage
	_ = json.Unmarshal(data, &m)
	return m
}

// unionKeys are the keys of a and b, sorted.
func unionKeys(a, b map[string]json.RawMessage) []string {
	return slices.Sorted(maps.Keys(union(a, b)))
}

// sameJSON reports whether a and b encode alike.
func sameJSON(a, b any) bool {
	x, errA := json.Marshal(a)
	y, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(x, y)
}
