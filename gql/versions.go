package gql

import (
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
)

// versioned is a kind of resource a website holds with versions (search
// configurations, pages): where its list is, its key, its versions and
// each version's id and status. Its operations edit a configuration in
// place, as live.Writer.UpdateConfig's edit does; each answers
// engine.NotFound or engine.Invalid naming what it refuses.
type versioned[R, V any] struct {
	what     string // "search configuration", "page"
	list     func(w *config.Website) *[]R
	key      func(r *R) string
	versions func(r *R) *[]V
	idStatus func(v *V) (*int, *string)
	// make is a new resource keyed key whose one version is v.
	make func(key string, v V) R
	// check checks a version's own members against its website, naming
	// a member relative to the version.
	check func(w *config.Website, v *V) error
}

// checkInput is k.check of a version a client sent as argument arg: a
// BAD_USER_INPUT naming the member under arg ("version.facets[0].field").
func (k versioned[R, V]) checkInput(w *config.Website, v *V, arg string) error {
	if err := k.check(w, v); err != nil {
		return engine.Invalid("", "%s.%v; nothing changed", arg, err)
	}
	return nil
}

// locate is the website of f that holds the resource key, and it.
func (k versioned[R, V]) locate(f *config.File, key string) (*config.Website, *R, error) {
	for i := range f.Websites {
		if r, ok := k.in(&f.Websites[i], key); ok {
			return &f.Websites[i], r, nil
		}
	}
	return nil, nil, engine.NotFound("key", "no %s %q", k.what, key)
}

// in is website w's resource key.
func (k versioned[R, V]) in(w *config.Website, key string) (*R, bool) {
	list := k.list(w)
	for j := range *list {
		if k.key(&(*list)[j]) == key {
			return &(*list)[j], true
		}
	}
	return nil, false
}

// create adds the resource key to website w, its version v live as id 1.
func (k versioned[R, V]) create(w *config.Website, key string, v V) *R {
	id, status := k.idStatus(&v)
	*id, *status = 1, config.StatusLive
	list := k.list(w)
	*list = append(*list, k.make(key, v))
	return &(*list)[len(*list)-1]
}

// version is r's version id.
func (k versioned[R, V]) version(r *R, id int) (*V, error) {
	vs := k.versions(r)
	for i := range *vs {
		if vid, _ := k.idStatus(&(*vs)[i]); *vid == id {
			return &(*vs)[i], nil
		}
	}
	return nil, engine.NotFound("id", "%s %q has no version %d", k.what, k.key(r), id)
}

// live is r's live version.
func (k versioned[R, V]) live(r *R) (*V, error) {
	vs := k.versions(r)
	for i := range *vs {
		if _, st := k.idStatus(&(*vs)[i]); *st == config.StatusLive {
			return &(*vs)[i], nil
		}
	}
	return nil, engine.NotFound("id", "%s %q has no live version", k.what, k.key(r))
}

// addDraft adds a draft to r, with the id after r's highest: v, or when
// v is nil a copy of version from (its live version when from is nil).
// It answers the draft.
func (k versioned[R, V]) addDraft(r *R, v *V, from *int) (*V, error) {
	if v == nil {
		var src *V
		var err error
		if from != nil {
			src, err = k.version(r, *from)
		} else {
			src, err = k.live(r)
		}
		if err != nil {
			return nil, err
		}
		c := *src // the copy shares src's slices: the configuration is replaced whole, never changed in place
		v = &c
	}
	vs := k.versions(r)
	next := 0
	for i := range *vs {
		id, _ := k.idStatus(&(*vs)[i])
		next = max(next, *id)
	}
	d := *v
	id, st := k.idStatus(&d)
	*id, *st = next+1, config.StatusDraft
	*vs = append(*vs, d)
	return &(*vs)[len(*vs)-1], nil
}

// update replaces the settings of r's version id with v's, keeping its
// id and status.
func (k versioned[R, V]) update(r *R, id int, v V) (*V, error) {
	old, err := k.version(r, id)
	if err != nil {
		return nil, err
	}
	oid, ost := k.idStatus(old)
	nid, nst := k.idStatus(&v)
	*nid, *nst = *oid, *ost
	*old = v
	return old, nil
}

// publish makes r's version id live and its live version a draft, in one
// change; publishing the live version changes nothing.
func (k versioned[R, V]) publish(r *R, id int) (*V, error) {
	v, err := k.version(r, id)
	if err != nil {
		return nil, err
	}
	if cur, err := k.live(r); err == nil {
		_, st := k.idStatus(cur)
		*st = config.StatusDraft
	}
	_, st := k.idStatus(v)
	*st = config.StatusLive
	return v, nil
}

// deleteVersion removes r's draft id; the live version cannot be
// removed (publish another first, or delete the resource).
func (k versioned[R, V]) deleteVersion(r *R, id int) error {
	v, err := k.version(r, id)
	if err != nil {
		return err
	}
	if _, st := k.idStatus(v); *st == config.StatusLive {
		return engine.Invalid("id", "version %d of %s %q is live: publish another version first, or delete the %s", id, k.what, k.key(r), k.what)
	}
	vs := k.versions(r)
	for i := range *vs {
		if vid, _ := k.idStatus(&(*vs)[i]); *vid == id {
			*vs = append((*vs)[:i:i], (*vs)[i+1:]...)
			break
		}
	}
	return nil
}

// remove deletes the resource key from website w.
func (k versioned[R, V]) remove(w *config.Website, key string) error {
	list := k.list(w)
	for i := range *list {
		if k.key(&(*list)[i]) == key {
			*list = append((*list)[:i:i], (*list)[i+1:]...)
			return nil
		}
	}
	return engine.NotFound("key", "no %s %q", k.what, key)
}
