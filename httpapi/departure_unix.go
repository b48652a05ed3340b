//go:build unix

package httpapi

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// watch peeks at the connection until it is readable: the end of the
// stream or an error is the client gone (cancel); a byte is a client
// still there, sending its next request, and ends the watch. stop's read
// deadline ends it too.
func (c *clientContext) watch() {
	sc, ok := c.conn.(syscall.Conn)
	if !ok { // TLS, or no connection: not watched
		return
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return
	}
	c.watching = make(chan struct{})
	go func() {
		defer close(c.watching)
		var b [1]byte
		_ = raw.Read(func(fd uintptr) bool {
			n, _, err := unix.Recvfrom(int(fd), b[:], unix.MSG_PEEK|unix.MSG_DONTWAIT)
			switch {
			case err == unix.EAGAIN || err == unix.EINTR:
				return false // nothing yet: wait until it is readable
			case err == nil && n > 0:
				return true
			}
			c.cancel(errClientLeft)
			return true
		})
	}()
}
