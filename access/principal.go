package access

// Principal is who a request acts as: the key its secret is, or the
// plain keys of a configuration that share that secret. The zero
// Principal is no one, and may nothing.
type Principal struct {
	keys []*Key
}

// Of is the principal of one key: a test's, or a command's acting as
// its key.
func Of(k *Key) Principal { return Principal{keys: []*Key{k}} }

// Allows reports whether p may do what scope covers on the website
// uuid of company.
func (p Principal) Allows(scope Scope, uuid, company string) bool {
	for _, k := range p.keys {
		if k.Allows(scope, uuid, company) {
			return true
		}
	}
	return false
}

// Name is the name of p's key, as the audit log records who acted;
// "" for no one.
func (p Principal) Name() string {
	if len(p.keys) == 0 {
		return ""
	}
	return p.keys[0].Name
}

// Keys are p's keys: one, or the plain keys sharing its secret.
func (p Principal) Keys() []*Key { return p.keys }

// Server reports whether p covers every website: the operator's key.
func (p Principal) Server() bool {
	for _, k := range p.keys {
		if k.Server() {
			return true
		}
	}
	return false
}
