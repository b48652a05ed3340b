package behaviour

// Copy is copy, for the external benchmarks.
func (m *Model) Copy() *Model { return m.copy() }
