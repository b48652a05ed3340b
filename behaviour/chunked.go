package behaviour

// chunked is a growing list of T in chunks of 4,096 elements: growing it
// never copies it, and the room it keeps beyond its elements is the last
// chunk's rest, where append's would be up to a quarter of it.
type chunked[T any] struct {
	chunks [][]T
	n      int
}

const (
	chunkBits = 12
	chunkSize = 1 << chunkBits
)

func (c *chunked[T]) len() int { return c.n }

// at is element i; the pointer stays good.
func (c *chunked[T]) at(i int) *T { return &c.chunks[i>>chunkBits][i&(chunkSize-1)] }

// add appends a zero element and is it.
func (c *chunked[T]) add() *T {
	if c.n&(chunkSize-1) == 0 {
		c.chunks = append(c.chunks, make([]T, chunkSize))
	}
	c.n++
	return c.at(c.n - 1)
}

// clone is a deep copy of c.
func (c *chunked[T]) clone() chunked[T] {
	out := chunked[T]{chunks: make([][]T, len(c.chunks)), n: c.n}
	for i, ch := range c.chunks {
		out.chunks[i] = append([]T(nil), ch...)
	}
	return out
}
