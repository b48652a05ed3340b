package behaviour

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"
)

// idHash names visitors and orders by a 64-bit keyed hash of their ids,
// so the model keeps 8 bytes, not the id, and a snapshot (with its key)
// finds them again after a restart. It is AES-CBC-MAC over the id's
// length and bytes under a random key: a pseudo-random function, so a
// visitor who picks their own tracking id cannot aim it at another's
// history without the key.
type idHash struct {
	key   [16]byte
	block cipher.Block
}

// newIDHash hashes under key; a zero key draws a random one.
func newIDHash(key [16]byte) *idHash {
	if key == ([16]byte{}) {
		rand.Read(key[:]) //nolint:errcheck // crypto/rand.Read does not fail
	}
	b, err := aes.NewCipher(key[:])
	if err != nil {
		panic(err) // a 16-byte key is always valid
	}
	return &idHash{key: key, block: b}
}

// sum is the hash of the strings parts, joined with a 0 byte.
func (h *idHash) sum(parts ...string) uint64 {
	var state, block [16]byte
	n := len(parts) - 1
	for _, p := range parts {
		n += len(p)
	}
	binary.LittleEndian.PutUint64(block[:8], uint64(n))
	fill := 8
	mix := func() {
		for i := range state {
			state[i] ^= block[i]
		}
		h.block.Encrypt(state[:], state[:])
		block, fill = [16]byte{}, 0
	}
	for i, p := range parts {
		if i > 0 {
			block[fill] = 0
			if fill++; fill == 16 {
				mix()
			}
		}
		for len(p) > 0 {
			c := copy(block[fill:], p)
			p, fill = p[c:], fill+c
			if fill == 16 {
				mix()
			}
		}
	}
	if fill > 0 {
		mix()
	}
	return binary.LittleEndian.Uint64(state[:8])
}
