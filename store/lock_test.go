package store

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"testing"
)

// TestOpenRefusesHeldDirectory: while a Store has a directory open,
// another Open of it, in this process or in another one (a running
// aisle serve), fails with ErrLocked; after Close or the holder's exit it
// opens.
func TestOpenRefusesHeldDirectory(t *testing.T) {
	dir := t.TempDir()
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); !errors.Is(err, ErrLocked) {
		t.Fatalf("second open in this process: %v, want ErrLocked", err)
	}
	st.Close()
	st.Close() // a second Close must not release another Store's claim
	st, err = Open(dir)
	if err != nil {
		t.Fatalf("after Close: %v", err)
	}
	if _, err := Open(dir); !errors.Is(err, ErrLocked) {
		t.Fatalf("after a double Close, a third open: %v, want ErrLocked", err)
	}
	st.Close()

	// Another process: this test binary, holding the store until its
	// stdin closes.
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "AISLE_TEST_HOLD_STORE="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "held\n" {
		t.Fatalf("helper: %q %v", line, err)
	}
	if _, err := Open(dir); !errors.Is(err, ErrLocked) {
		t.Fatalf("open while another process holds it: %v, want ErrLocked", err)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("helper: %v", err)
	}
	st, err = Open(dir)
	if err != nil {
		t.Fatalf("after the other process ended: %v", err)
	}
	st.Close()
}

// TestMain runs the other process of TestOpenRefusesHeldDirectory when
// AISLE_TEST_HOLD_STORE names a directory: it holds the store until its
// stdin closes.
func TestMain(m *testing.M) {
	if dir := os.Getenv("AISLE_TEST_HOLD_STORE"); dir != "" {
		st, err := Open(dir)
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Stdout.WriteString("held\n")
		bufio.NewReader(os.Stdin).ReadString('\n') // until the parent closes stdin
		st.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}
