package behaviour

import "unsafe"

// chunked is a growing list of T in chunks of 4,096 elements: growing it
// never copies more than its first chunk (which starts at 16 elements and
// doubles until whole, so a small list stays small), and the room it
// keeps beyond its elements is the last chunk's rest, where append's
// would be up to a quarter of it.
type chunked[T any] struct {
	chunks [][]T
	n      int
}

const (
	chunkBits = 12
	chunkSize = 1 << chunkBits
)

func (c *chunked[T]) len() int { return c.n }

// at is element i; the pointer stays good until the next add.
func (c *chunked[T]) at(i int) *T { return &c.chunks[i>>chunkBits][i&(chunkSize-1)] }

// add appends a zero element and is it.
func (c *chunked[T]) add() *T {
	switch {
	case len(c.chunks) == 0:
		c.chunks = append(c.chunks, make([]T, 16))
	case c.n < chunkSize && c.n == len(c.chunks[0]):
		c.chunks[0] = append(c.chunks[0], make([]T, c.n)...)
	case c.n&(chunkSize-1) == 0:
		c.chunks = append(c.chunks, make([]T, chunkSize))
	}
	c.n++
	return c.at(c.n - 1)
}

// truncate keeps the first n elements and drops the rest, and the
// chunks left empty: the next add is a zero element again.
func (c *chunked[T]) truncate(n int) {
	if n >= c.n {
		return
	}
	keep := (n + chunkSize - 1) >> chunkBits
	clear(c.chunks[keep:])
	c.chunks = c.chunks[:keep]
	if keep > 0 {
		last := c.chunks[keep-1]
		clear(last[n-(keep-1)<<chunkBits:])
	}
	c.n = n
}

// clone is a deep copy of c.
func (c *chunked[T]) clone() chunked[T] {
	out := chunked[T]{chunks: make([][]T, len(c.chunks)), n: c.n}
	for i, ch := range c.chunks {
		out.chunks[i] = append([]T(nil), ch...)
	}
	return out
}

// bytes is the room c takes.
func (c *chunked[T]) bytes() int {
	var zero T
	n := 0
	for _, ch := range c.chunks {
		n += len(ch)
	}
	return n * int(unsafe.Sizeof(zero))
}
