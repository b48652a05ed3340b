package live

import (
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
)

// UpdateConfig changes the stored configuration by edit, which gets a
// copy of it to change in place, and applies the result as SetConfig
// does (validated, every website opened, one entry with its audit
// entries). Edits are serialised: edit sees the configuration every
// earlier change left, so two consoles changing different resources
// both land. An error from edit changes nothing and is answered as it
// is (an engine.Error keeps its kind); so is a configuration that does
// not validate, as engine.Invalid.
func (l *Writer) UpdateConfig(edit func(f *config.File) error) (w Written, err error) {
	defer l.answered(l.arrive(), &err)
	l.mu.Lock()
	defer l.mu.Unlock()
	f, err := l.st.Config() // decoded anew: edit's to change
	if err != nil {
		return Written{}, err
	}
	if f == nil {
		f = &config.File{}
	}
	if err := edit(f); err != nil {
		return Written{}, err
	}
	if err := f.Validate(); err != nil {
		return Written{}, engine.Invalid("config", "%v; nothing changed", err)
	}
	a, err := l.setConfig(f, nil)
	return Written{Seq: a.Seq}, err
}
