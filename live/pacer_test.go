package live

import (
	"testing"
	"time"
)

// TestPacerHalvesTheDutyCycle: work paced in steps of various lengths
// sleeps about as long as it ran, never pauses inside a stretch shorter
// than pacerSlice, and not at all while hurry says so.
func TestPacerHalvesTheDutyCycle(t *testing.T) {
	clock := time.Unix(0, 0)
	var slept, worked time.Duration
	hurry := false
	p := &pacer{hurry: func() bool { return hurry }, now: func() time.Time { return clock },
		sleep: func(d time.Duration) { slept += d; clock = clock.Add(d) }}
	steps := []time.Duration{time.Millisecond, 3 * time.Millisecond, 7 * time.Millisecond, 250 * time.Microsecond, 20 * time.Millisecond}
	p.step()
	for i := range 1000 {
		d := steps[i%len(steps)]
		clock = clock.Add(d)
		worked += d
		before := slept
		p.step()
		if pause := slept - before; pause != 0 && pause < pacerSlice {
			t.Fatalf("step %d: paused %s, less than a slice", i, pause)
		}
	}
	if slept < worked*9/10 || slept > worked {
		t.Errorf("worked %s, slept %s: want about as long", worked, slept)
	}
	hurry, slept = true, 0
	for range 100 {
		clock = clock.Add(20 * time.Millisecond)
		p.step()
	}
	if slept != 0 {
		t.Errorf("slept %s in a hurry", slept)
	}
	var none *pacer
	none.step() // a nil pacer never pauses, nor panics
}
