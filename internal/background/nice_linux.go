package background

import "golang.org/x/sys/unix"

// nice lowers the calling thread's CPU priority to Nice. Linux keeps the
// nice value per thread; a failure leaves the thread at its priority.
func nice() {
	unix.Setpriority(unix.PRIO_PROCESS, unix.Gettid(), Nice) //nolint:errcheck // best effort
}
