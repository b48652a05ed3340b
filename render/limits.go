package render

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// The bounds of one render. A template is the shop's configuration, not
// trusted code: whatever it does, a render stops with an error (and no
// page) once it has written MaxBytes, its functions have made MaxBytes of
// text, it has run MaxDuration, or its context is done (the client left).
const (
	// MaxBytes is the most a render writes, and the most text its
	// functions (print, printf, js, urlWith, ...) make in it: 8 MiB, some
	// twenty times what the built-in search template writes for a
	// thousand products (a search's largest count).
	MaxBytes = 8 << 20
	// MaxDuration is the longest a render runs: 1 s, ten to thirty times
	// what the built-in search template takes for a thousand products on
	// a loaded two-core machine.
	MaxDuration = time.Second
)

// The errors a bounded render stops with; Execute's error wraps one of
// them, or the template's own error.
var (
	// ErrTooLarge: the render wrote more than MaxBytes, or its functions
	// made more than MaxBytes of text.
	ErrTooLarge = errors.New("output too large")
	// ErrTimeout: the render ran longer than MaxDuration, or past its
	// context's deadline.
	ErrTimeout = errors.New("took too long")
	// ErrCanceled: the render's context was done (its cause follows).
	ErrCanceled = errors.New("canceled")
)

// limits are a template's bounds: MaxBytes and MaxDuration, but in
// this package's tests.
type limits struct {
	bytes    int
	duration time.Duration
}

var defaultLimits = limits{bytes: MaxBytes, duration: MaxDuration}

// run is one render's state: its output (run is the template's writer)
// and its bounds. Every write, every template entered and every range
// iteration checks the bounds (tick), so a loop that writes nothing
// stops as surely as one that writes.
type run struct {
	lim      limits
	out      []byte
	made     int // bytes the template's functions made
	ticks    int
	ctx      context.Context
	deadline time.Time
	err      error // the bound that stopped the render
}

func (r *run) start(ctx context.Context, lim limits) {
	r.lim, r.out, r.made, r.ticks, r.ctx, r.err = lim, r.out[:0], 0, 0, ctx, nil
	r.deadline = time.Now().Add(lim.duration)
	if d, ok := ctx.Deadline(); ok && d.Before(r.deadline) {
		r.deadline = d
	}
}

// end forgets the render's context, and its output when it is large, so
// a clone waiting for its next render holds neither.
func (r *run) end() {
	r.ctx = nil
	if cap(r.out) > 1<<20 {
		r.out = nil
	}
}

// Write appends p to the output, or fails past a bound.
func (r *run) Write(p []byte) (int, error) {
	if err := r.tick(); err != nil {
		return 0, err
	}
	if len(r.out)+len(p) > r.lim.bytes {
		return 0, r.stop(fmt.Errorf("%w: more than %d bytes written", ErrTooLarge, r.lim.bytes))
	}
	r.out = append(r.out, p...)
	return len(p), nil
}

// tick fails once the render's context is done or, read every
// clockEvery ticks, its time is past.
func (r *run) tick() error {
	if r.err != nil {
		return r.err
	}
	select {
	case <-r.ctx.Done():
		if errors.Is(r.ctx.Err(), context.DeadlineExceeded) {
			return r.stop(fmt.Errorf("%w: its context's deadline passed", ErrTimeout))
		}
		return r.stop(fmt.Errorf("%w (%w)", ErrCanceled, context.Cause(r.ctx)))
	default:
	}
	if r.ticks++; r.ticks%clockEvery == 0 && time.Now().After(r.deadline) {
		return r.stop(fmt.Errorf("%w: more than %v", ErrTimeout, r.lim.duration))
	}
	return nil
}

// clockEvery ticks a render reads the clock: a tick costs a template
// step (a write, a call, an iteration) of 50 ns or more, and reading
// the clock about as much, so the deadline is overrun by microseconds.
const clockEvery = 64

// room fails when a function may make up to n more bytes past the
// render's budget; spend then counts what it made.
func (r *run) room(n int) error {
	if err := r.tick(); err != nil {
		return err
	}
	if n > r.lim.bytes-r.made {
		return r.stop(fmt.Errorf("%w: functions made more than %d bytes", ErrTooLarge, r.lim.bytes))
	}
	return nil
}

func (r *run) spend(n int) { r.made += n }

// stop records the bound that stopped the render: the template engine
// wraps a function's error in its own, so Execute returns this one.
func (r *run) stop(err error) error {
	r.err = err
	return err
}
