package live

import (
	"errors"
	"time"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/store"
)

// API keys: made and revoked as one store entry with their audit entry,
// by a running server (Writer.CreateKey, Writer.RevokeKey) or on a data
// directory no server has open (CreateStoredKey, RevokeStoredKey: aisle
// keys).

// MaxKeys bounds the stored keys: each request's key is looked up among
// them, and a listing sorts them.
const MaxKeys = 10_000

// errTooManyKeys refuses a key past MaxKeys.
var errTooManyKeys = engine.Invalid("input", "the server holds %d API keys, the most it keeps: revoke some first", MaxKeys)

// loadKeys makes the store's keys the engine's.
func (l *Writer) loadKeys() error {
	keys, err := l.st.Keys()
	if err != nil {
		return err
	}
	l.eng.SetKeys(keys)
	return nil
}

// CreateKey makes an API key as s asks and answers it with its secret,
// which is shown this once. A key of a website names a served one; a
// company's, a valid company id.
func (l *Writer) CreateKey(s access.Spec) (k *access.Key, secret string, w Written, err error) {
	defer l.answered(l.arrive(), &err)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.eng.KeyCount() >= l.maxKeys {
		return nil, "", Written{}, errTooManyKeys
	}
	var site *config.Website
	if s.Website != "" {
		g, err := l.Website(s.Website)
		if err != nil {
			return nil, "", Written{}, err
		}
		site = g.Website
	}
	k, secret, b, err := keyCreation(s, site, l.eng.Now(), l.by)
	if err != nil {
		return nil, "", Written{}, err
	}
	a, err := l.applyKeys(b)
	if err != nil {
		return nil, "", Written{}, err
	}
	return k, secret, Written{Seq: a.Seq, Added: 1}, nil
}

// RevokeKey deletes the stored key id; a request with it is refused from
// the answer on. An unknown id is engine.NotFound.
func (l *Writer) RevokeKey(id string) (k *access.Key, w Written, err error) {
	defer l.answered(l.arrive(), &err)
	l.mu.Lock()
	defer l.mu.Unlock()
	k, ok := l.eng.Key(id)
	if !ok {
		return nil, Written{}, engine.NotFound("id", "no API key %q", id)
	}
	var site *config.Website
	if g, ok := l.eng.Website(k.Website); ok {
		site = g.Website
	}
	a, err := l.applyKeys(keyRevocation(k, site, l.by))
	if err != nil {
		return nil, Written{}, err
	}
	return k, Written{Seq: a.Seq, Deleted: 1}, nil
}

// applyKeys appends b, a change of keys, and serves the keys it leaves;
// l.mu is held.
func (l *Writer) applyKeys(b *store.Batch) (store.Applied, error) {
	a, err := l.commit(b)
	if err != nil {
		return a, err
	}
	return a, l.loadKeys()
}

// CreateStoredKey is CreateKey on a data directory no server has open: a
// key of a website names one of its stored configuration's.
func CreateStoredKey(st *store.Store, s access.Spec, by Actor) (*access.Key, string, error) {
	if keys, err := st.Keys(); err != nil || len(keys) >= MaxKeys {
		if err == nil {
			err = errTooManyKeys
		}
		return nil, "", err
	}
	var site *config.Website
	if s.Website != "" {
		f, err := st.Config()
		if err != nil {
			return nil, "", err
		}
		var ok bool
		if f != nil {
			site, ok = f.Website(s.Website)
		}
		if !ok {
			return nil, "", engine.NotFound("websiteUuid", "the configuration has no website %q", s.Website)
		}
	}
	k, secret, b, err := keyCreation(s, site, time.Now(), by)
	if err != nil {
		return nil, "", err
	}
	_, err = st.Append(b, true)
	return k, secret, err
}

// RevokeStoredKey is RevokeKey on a data directory no server has open.
func RevokeStoredKey(st *store.Store, id string, by Actor) (*access.Key, error) {
	keys, err := st.Keys()
	if err != nil {
		return nil, err
	}
	k, ok := access.NewRing(keys).Key(id)
	if !ok {
		return nil, engine.NotFound("id", "no API key %q", id)
	}
	var site *config.Website
	if f, err := st.Config(); err == nil && f != nil {
		site, _ = f.Website(k.Website)
	}
	_, err = st.Append(keyRevocation(k, site, by), true)
	return k, err
}

// keyCreation is the entry that makes a key as s asks (site is its
// website's configuration, when it names one), by by at now: the key,
// its secret and the batch.
func keyCreation(s access.Spec, site *config.Website, now time.Time, by Actor) (*access.Key, string, *store.Batch, error) {
	if s.Company != "" {
		if err := config.CheckCompany(s.Company); err != nil {
			return nil, "", nil, engine.Invalid("companyId", "%v", err)
		}
	}
	k, secret, err := access.New(s, now)
	if errors.Is(err, access.ErrInvalid) {
		return nil, "", nil, engine.Invalid("input", "%v", err)
	}
	if err != nil {
		return nil, "", nil, err
	}
	var b store.Batch
	if err := b.PutKey(k); err != nil {
		return nil, "", nil, err
	}
	e := keyEntry(by, k, site, []string{"name", "scopes", reachMember(k)})
	e.Keypoint = true
	b.Audit(e)
	return k, secret, &b, nil
}

// keyRevocation is the entry that revokes k (of website site, when it
// is still configured), by by.
func keyRevocation(k *access.Key, site *config.Website, by Actor) *store.Batch {
	var b store.Batch
	b.RemoveKey(k.ID)
	e := keyEntry(by, k, site, []string{"revoked"})
	e.Keypoint, e.Endpoint = true, true
	b.Audit(e)
	return &b
}

// keyEntry is the audit entry of a change of key k by by: of its website
// when it has one (site, when still configured), else of its company
// (DefaultCompany for the operator's keys).
func keyEntry(by Actor, k *access.Key, site *config.Website, changed []string) AuditEntry {
	company := k.Company
	if company == "" && site == nil {
		company = config.DefaultCompany
	}
	e := by.entry(ResourceAPIKey, site, company, k.ID, k.Name, changed)
	if site == nil && k.Website != "" {
		e.WebsiteUUID = k.Website // a website no longer configured
	}
	return e
}

// reachMember names what a key covers: websiteUuid, companyId, or
// server for every website.
func reachMember(k *access.Key) string {
	switch {
	case k.Website != "":
		return "websiteUuid"
	case k.Company != "":
		return "companyId"
	}
	return "server"
}
